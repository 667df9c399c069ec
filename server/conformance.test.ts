/**
 * The API against its own document: fast-check writes requests from GET /v1/openapi.json (valid
 * bodies and queries, and slightly wrong ones: a field left out or of the wrong type, any JSON,
 * unknown ids) for every operation, as an admin and as a stranger, and each answer must be one
 * the document gives (server/test-answers.ts, through the harness) and never a server error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../contract/openapi';
import { dataOf, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Json;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Json }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

/** Requests per operation (each an admin's or a stranger's). */
const RUNS = 6;
/** Generated text stays short: a limit's edge is one of the lengths drawn, not a whole run. */
const TEXT = 24;

/** Values `schema` accepts (as far as its keywords go: the server may still refuse a value). */
function valueOf(schema: Json): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (options) return fc.oneof(...options.map(valueOf));
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'email') return fc.emailAddress();
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
      const minLength = (schema.minLength as number | undefined) ?? 0;
      const maxLength = (schema.maxLength as number | undefined) ?? TEXT;
      return fc.oneof(
        fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, TEXT)) }),
        fc.constant('x'.repeat(maxLength)),
      );
    }
    case 'integer':
      return fc.integer({
        min: Math.max((schema.minimum as number | undefined) ?? -1000, Number.MIN_SAFE_INTEGER),
        max: Math.min((schema.maximum as number | undefined) ?? 1000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueOf((schema.items as Json | undefined) ?? {}), {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min((schema.maxItems as number | undefined) ?? 4, 4),
      });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, valueOf(s)])),
        { requiredKeys: [...required].filter((name) => name in properties) },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A body `schema` accepts, or one slightly wrong: a field left out or swapped, or any JSON. */
function bodyOf(schema: Json): fc.Arbitrary<unknown> {
  const valid = valueOf(schema);
  const wrong = fc
    .tuple(valid, fc.nat(), fc.jsonValue({ maxDepth: 1 }), fc.boolean())
    .map(([value, index, other, drop]) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return other;
      const keys = Object.keys(value);
      if (keys.length === 0) return other;
      const key = keys[index % keys.length]!;
      const copy: Json = { ...(value as Json) };
      if (drop) delete copy[key];
      else copy[key] = other;
      return copy;
    });
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 2, arbitrary: wrong },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

/** A path parameter: one its schema names (an enum, a key), a record that exists, or any text. */
const segmentOf = (schema: Json, known: string[]) =>
  fc
    .oneof(
      schema.enum || schema.pattern || schema.format
        ? valueOf({ ...schema, not: undefined }).map(String)
        : fc.constantFrom(...known),
      fc.constantFrom(...known),
      fc.string({ minLength: 1, maxLength: 12 }),
    )
    .filter((value) => value !== '.' && value !== '..')
    .map(encodeURIComponent);

/** A query parameter's values (several for an array: the parameter repeated), or any short text. */
const queryValuesOf = (schema: Json) =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: valueOf(schema).map((value) =>
        Array.isArray(value) ? value.map(String) : [String(value)],
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((value) => [value]) },
  );

describe('the API against its OpenAPI document', () => {
  it('answers generated requests of every operation only as the document says, never with a server error', async () => {
    const document = (await t.get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    expect(document).toEqual(openApiDocument('1.0.0'));
    // Ids of records that exist, so that requests reach past "not found".
    const known = ['nonexistent-id'];
    for (const list of ['/v1/assets', '/v1/tags', '/v1/applications', '/v1/cage-meshes']) {
      const rows = dataOf(await t.get(`${list}?limit=3`, tokens.admin)) as { id: string }[];
      known.push(...rows.map((row) => row.id));
    }
    const stranger = fc.constant(undefined);
    const admin = fc.constant(tokens.admin);
    let requests = 0;
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        // A stream answers until the client leaves: its own tests read it.
        if (operation.responses['200']?.content?.['text/event-stream']) continue;
        const parameters = operation.parameters ?? [];
        const body = operation.requestBody?.content['application/json']?.schema;
        const bytes = !!operation.requestBody?.content['application/octet-stream'];
        const request = fc.record({
          token: fc.oneof(admin, stranger),
          path: fc.tuple(
            ...parameters
              .filter((p) => p.in === 'path')
              .map((p) => segmentOf(p.schema, known).map((value) => [p.name, value] as const)),
          ),
          query: fc.tuple(
            ...parameters
              .filter((p) => p.in === 'query')
              .map((p) =>
                fc.option(
                  queryValuesOf(p.schema).map((values) =>
                    values.map((value): [string, string] => [p.name, value]),
                  ),
                  { nil: undefined, freq: p.required ? 10 : 2 },
                ),
              ),
          ),
          body: body ? bodyOf(body) : fc.constant(undefined),
          bytes: bytes ? fc.uint8Array({ maxLength: 64 }) : fc.constant(undefined),
        });
        await fc.assert(
          fc.asyncProperty(request, async (generated) => {
            let path = template;
            for (const [name, value] of generated.path) path = path.replace(`{${name}}`, value);
            const query = new URLSearchParams(
              generated.query.flatMap((pairs) => pairs ?? []),
            ).toString();
            requests += 1;
            // The harness fails the request whose answer the document does not give.
            const response = await t.request(
              method.toUpperCase(),
              query ? `${path}?${query}` : path,
              {
                token: generated.token,
                ...(generated.body !== undefined ? { body: generated.body } : {}),
                ...(generated.bytes ? { bytes: generated.bytes } : {}),
              },
            );
            expect(
              response.status === 501 || response.status < 500,
              JSON.stringify(response.body),
            ).toBe(true);
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
      }
    }
    expect(requests).toBeGreaterThan(RUNS * 150);
  }, 240_000);
});
