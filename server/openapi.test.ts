import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument, rolesOf } from '../contract/openapi';
import { ROUTES } from '../contract/routes';
import { fileKeySchema } from '../contract/routes/files';
import type { Role } from '../contract/schemas';
import { z } from 'zod/mini';
import { KEY_PATTERN } from './storage';
import { useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

type Operation = { 'x-roles': Role[]; security: unknown[] };
type Document = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
};

/** `METHOD /path/{param}` of every route the app mounts (middleware, `ALL`, left out). */
function mountedRoutes(): Set<string> {
  const routes = t.app.routes
    .filter((route) => route.method !== 'ALL')
    .map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, '{$1}')}`);
  return new Set(routes);
}

function documentedRoutes(document: Document): Set<string> {
  return new Set(
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
}

describe('the OpenAPI document (GET /v1/openapi.json)', () => {
  it('is served without a token and is valid OpenAPI 3.1', async () => {
    const response = await t.get('/v1/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body as Document;
    expect(document.openapi).toBe('3.1.0');
    expect(document).toEqual(openApiDocument('1.0.0'));
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(validator.version).toBe('3.1');
    expect(JSON.stringify(result.errors ?? []).slice(0, 2000)).toBe('[]');
    expect(result.valid).toBe(true);
    // The validator is not one that passes anything.
    const broken = { ...document, paths: { '/v1/assets': { get: { responses: 'none' } } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('documents every route the server mounts, and no route it does not', async () => {
    const document = (await t.get('/v1/openapi.json')).body as Document;
    const mounted = mountedRoutes();
    const documented = documentedRoutes(document);
    expect(
      [...mounted].filter((route) => !documented.has(route)),
      'mounted, not documented',
    ).toEqual([]);
    expect(
      [...documented].filter((route) => !mounted.has(route)),
      'documented, not mounted',
    ).toEqual([]);
  });

  it('names the roles of each route: every role without a token, else those its abilities allow', async () => {
    const document = (await t.get('/v1/openapi.json')).body as Document;
    for (const route of ROUTES) {
      const operation = document.paths[route.path]![route.method]!;
      expect(operation['x-roles'], `${route.method} ${route.path}`).toEqual(rolesOf(route));
      expect(operation.security).toEqual(route.auth === 'none' ? [] : [{ bearer: [] }]);
    }
    const roles = (method: string, path: string) => document.paths[path]![method]!['x-roles'];
    expect(roles('get', '/v1/assets')).toEqual(['admin', 'developer', 'user', 'anonymous']);
    expect(roles('patch', '/v1/assets/{id}')).toEqual(['admin', 'developer']);
    expect(roles('delete', '/v1/assets/{id}')).toEqual(['admin']);
    expect(roles('get', '/private/v1/assets')).toEqual(['admin', 'developer']);
    expect(roles('post', '/private/v1/applications')).toEqual(['admin']);
    expect(roles('get', '/v1/tags')).toEqual(['admin', 'developer', 'user']);
  });

  it('matches what the server enforces: 401 without a token where one is needed, 403 for each role left out', async () => {
    const wrong: string[] = [];
    for (const route of ROUTES.filter((r) => r.auth === 'bearer')) {
      // Well-formed requests of records that do not exist: some routes check the caller's
      // abilities only once the request is valid (the Trash's, an upload's kind).
      const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        name === 'kind' ? 'model' : 'nonexistent-id',
      );
      const body = route.method === 'get' ? {} : { body: { ids: ['nonexistent-id'] } };
      const none = await t.request(route.method.toUpperCase(), path, body);
      if (none.status !== 401)
        wrong.push(`${route.method} ${route.path} without a token: ${none.status}`);
      const allowed = rolesOf(route);
      // Only roles left out: a request of an allowed role would run the route (sign out, delete).
      for (const role of ['admin', 'developer', 'user', 'anonymous'] as const) {
        if (allowed.includes(role)) continue;
        const response = await t.request(route.method.toUpperCase(), path, {
          ...body,
          token: tokens[role],
        });
        if (response.status !== 403)
          wrong.push(`${route.method} ${route.path} as ${role}: ${response.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the paths of the document', () => {
  type Parameter = { name: string; in: string; schema: { not?: { enum?: string[] } } };
  /** Whether some address matches both paths for `method`, their parameters' schemas allowing. */
  function overlap(a: string, b: string, method: string, document: Document): boolean {
    const [one, two] = [a.split('/'), b.split('/')];
    if (one.length !== two.length) return false;
    const reserved = (path: string, method: string, name: string) =>
      (
        (document.paths[path]![method] as unknown as { parameters?: Parameter[] }).parameters ?? []
      ).find((p) => p.in === 'path' && p.name === name)?.schema.not?.enum ?? [];
    return one.every((segment, i) => {
      const other = two[i]!;
      const param = (s: string) => s.match(/^\{(.+)\}$/)?.[1];
      if (param(segment) && param(other)) return true;
      if (param(segment)) return !reserved(a, method, param(segment)!).includes(other);
      if (param(other)) return !reserved(b, method, param(other)!).includes(segment);
      return segment === other;
    });
  }

  it('are never two for one address and method (a parameter is never a word another path has in its place)', async () => {
    const document = (await t.get('/v1/openapi.json')).body as Document;
    const paths = Object.keys(document.paths);
    const ambiguous: string[] = [];
    for (const [i, a] of paths.entries()) {
      for (const b of paths.slice(i + 1)) {
        const shared = Object.keys(document.paths[a]!).filter((m) => m in document.paths[b]!);
        for (const method of shared) {
          if (overlap(a, b, method, document)) ambiguous.push(`${method} ${a} ${b}`);
        }
      }
    }
    expect(ambiguous).toEqual([]);
    const id = (path: string) =>
      (document.paths[path]!.get as unknown as { parameters: Parameter[] }).parameters[0]!;
    expect(id('/v1/assets/{id}/application').schema.not?.enum).toContain('export');
    expect(id('/v1/assets/{id}').schema.not?.enum).toContain('countByType');
  });
});

describe('the path parameters of the document', () => {
  it('name the values the server reads: upload kinds, Trash kinds, e-mail addresses, file keys', async () => {
    const document = (await t.get('/v1/openapi.json')).body as Document;
    const schema = (path: string, method: string, name: string) =>
      (
        document.paths[path]![method] as unknown as {
          parameters: { name: string; schema: Record<string, unknown> }[];
        }
      ).parameters.find((p) => p.name === name)!.schema;
    expect(schema('/v1/uploads/{kind}', 'post', 'kind').enum).toEqual([
      'model',
      'icon',
      'texture',
      'source',
    ]);
    expect(schema('/v1/trash/{kind}/{id}', 'delete', 'kind').enum).toContain('cage-mesh');
    expect(schema('/v1/users/email/{email}', 'get', 'email')).toMatchObject({
      format: 'email',
      maxLength: 254,
    });
    expect(schema('/files/{key}', 'get', 'key').pattern).toBe(KEY_PATTERN.source);
    expect(z.toJSONSchema(fileKeySchema).pattern).toBe(KEY_PATTERN.source);
    // A key of that pattern that names no file is a 404, as documented; an address the pattern
    // refuses too (it reaches no file).
    expect((await t.get('/files/0123456789abcdef01234567.glb')).status).toBe(404);
    const exists = await t.get(`/v1/users/email/${encodeURIComponent('nobody@example.com')}`);
    expect(exists.status).toBe(200);
  });
});

describe('the documentation page (GET /v1/docs)', () => {
  it('renders the document with files this server serves, under a page policy', async () => {
    const page = await t.get('/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = String(page.body);
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(sources).toEqual([
      '/v1/docs/swagger-ui.css',
      '/v1/docs/swagger-ui-bundle.js',
      '/v1/docs/init.js',
    ]);
    expect(html).not.toMatch(/<script>/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const source of sources) {
      const file = await t.get(source);
      expect(file.status, source).toBe(200);
      expect(String(file.body).length, source).toBeGreaterThan(10);
    }
    expect(String((await t.get('/v1/docs/init.js')).body)).toContain("url: '/v1/openapi.json'");
    expect((await t.get('/v1/docs/package.json')).status).toBe(404);
  });
});
