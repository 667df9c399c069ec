/**
 * Checks every answer the app gives in the server tests against the OpenAPI document
 * (contract/openapi.ts): its status must be one the operation declares, and a JSON body must
 * match that status's schema (an undocumented property fails, as the schemas forbid them). The
 * operation is found by the request's method and path among the document's templates, the
 * most literal first, as the router picks. Paths the document does not name (the SPA, unknown
 * addresses) are not checked; a documented path with a method it lacks must answer 405.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Validator, type Schema } from '@cfworker/json-schema';
import type { MiddlewareHandler } from 'hono';
import { openApiDocument } from '../contract/openapi';

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Per segment, 0 for a literal and 1 for a parameter: the lowest sorts first. */
  rank: number[];
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

const document = openApiDocument('1.0.0');
const operations: Operation[] = Object.entries(document.paths)
  .flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      rank: template.split('/').map((segment) => (segment.startsWith('{') ? 1 : 0)),
      responses: operation.responses as Operation['responses'],
    })),
  )
  .sort((a, b) => {
    for (let i = 0; i < Math.min(a.rank.length, b.rank.length); i += 1) {
      if (a.rank[i] !== b.rank[i]) return a.rank[i]! - b.rank[i]!;
    }
    return 0;
  });

const validators = new Map<Json, Validator>();
function validatorOf(schema: Json): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    // The error schemas are `$ref`s into the document's components.
    const root = { ...schema, components: document.components } as Schema;
    validator = new Validator(root, '2020-12', false);
    validators.set(schema, validator);
  }
  return validator;
}

/**
 * The operations whose template matches `path` (any method), the most literal first; a path
 * that is a template of its own is that template's alone (server/http/method-not-allowed.ts).
 */
function operationsAt(path: string): Operation[] {
  const all = operations.filter((operation) => operation.pattern.test(path));
  const literal = all.filter((operation) => !operation.template.includes('{'));
  return literal.length > 0 ? literal : all;
}

/** What is wrong with `response` as the answer to `method path` (undefined: nothing). */
export async function answerProblem(
  method: string,
  path: string,
  response: Response,
): Promise<string | undefined> {
  const candidates = operationsAt(path);
  if (candidates.length === 0) return undefined;
  const asked = method === 'HEAD' ? 'GET' : method;
  const operation = candidates.find((candidate) => candidate.method === asked);
  const where = `${method} ${path}`;
  if (!operation) {
    return response.status === 405 || (method === 'OPTIONS' && response.status < 300)
      ? undefined
      : `${where}: ${response.status}, not 405 (no ${asked} ${candidates[0]!.template})`;
  }
  const name = `${operation.method} ${operation.template}`;
  const declared = operation.responses[String(response.status)];
  if (!declared) {
    const body = (await response.clone().text()).slice(0, 200);
    return `${name}: undocumented status ${response.status} (${where}: ${body})`;
  }
  const type = response.headers.get('content-type') ?? '';
  const schema = declared.content?.['application/json']?.schema;
  if (method === 'HEAD' || !schema || !type.startsWith('application/json')) return undefined;
  const text = await answerText(response);
  if (text === undefined) return `${name}: ${response.status} in an unknown encoding (${where})`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${name}: ${response.status} is not JSON (${where})`;
  }
  const result = validatorOf(schema).validate(body);
  if (result.valid) return undefined;
  // The deepest errors say what is wrong; the outer ones only that a subschema failed.
  const errors = result.errors
    .filter((error) => !/subschema|does not match any/i.test(error.error))
    .slice(0, 3)
    .map((error) => `${error.instanceLocation} ${error.error}`);
  return `${name}: ${response.status} answer outside its schema: ${errors.join('; ')} (${where}: ${text.slice(0, 300)})`;
}

/** The answer's text, decoded from the encodings the server compresses JSON in. */
async function answerText(response: Response): Promise<string | undefined> {
  const encoding = response.headers.get('content-encoding');
  if (!encoding) return response.clone().text();
  const bytes = Buffer.from(await response.clone().arrayBuffer());
  if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
  return undefined;
}

/**
 * A middleware, installed before all others, that hands `report` what is wrong with each
 * answer (server/test-app.ts fails the test that got it).
 */
export function checkAnswers(report: (problem: string) => void): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const problem = await answerProblem(c.req.method, c.req.path, c.res);
    if (problem) report(problem);
  };
}
