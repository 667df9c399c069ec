/**
 * The one input-validation helper used by every route: JSON bodies and path parameters are
 * parsed with the shared zod schemas, and every failure becomes a 4xx with a readable message.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { fail } from './errors';

/** Reads and validates the JSON body of `c` against `schema`. */
export async function readBody<T extends z.core.$ZodType>(
  c: Context,
  schema: T,
): Promise<z.infer<T>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    fail(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
  }
  const text = await c.req.text();
  let json: unknown;
  let hasNul = false;
  try {
    json = JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === 'string' && value.includes('\0')) hasNul = true;
      return value;
    });
  } catch {
    fail(400, 'INVALID_JSON', 'The request body is not valid JSON');
  }
  // PostgreSQL text cannot hold NUL; refuse it here instead of failing in the database.
  if (hasNul) fail(400, 'VALIDATION_ERROR', 'body: Text must not contain NUL characters');
  return check(schema, json, 'body');
}

/** Validates one path or query value, e.g. the e-mail in /users/email/:email. */
export function readParam<T extends z.core.$ZodType>(schema: T, value: unknown, name: string) {
  return check(schema, value, name);
}

function check<T extends z.core.$ZodType>(schema: T, value: unknown, name: string): z.infer<T> {
  const result = z.safeParse(schema, value);
  if (!result.success) fail(400, 'VALIDATION_ERROR', describeIssues(result.error.issues, name));
  return result.data;
}

/** Turns zod issues into "email: Invalid email address; password: Too small ..." text. */
function describeIssues(issues: readonly z.core.$ZodIssue[], root: string): string {
  return flatten(issues)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : root}: ${issue.message}`)
    .join('; ');
}

// A union failure holds one issue list per branch; the branch with the fewest issues is
// almost always the one the caller meant, so report that instead of a bare "Invalid input".
function flatten(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
    const best = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
    return flatten(best.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })));
  });
}
