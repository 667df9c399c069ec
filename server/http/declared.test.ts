import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { bulkJobCreateBodySchema } from '../../contract/bulk-jobs';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from './declared';

const noDeps = {} as Deps;
const ok = () => new Response('ok');

describe('a handler mounted from its declaration', () => {
  it('cannot read another body than its route declares, nor serve a route the table lacks', () => {
    const on = declaredRoutes(new Hono<AuthEnv>(), noDeps, '/v1/bulk-jobs');
    expect(() => on('post', '/v1/bulk-jobs', z.object({ any: z.string() }), ok)).toThrow(
      'reads a body other than the one it declares',
    );
    expect(() => on('post', '/v1/bulk-jobs', undefined, ok)).toThrow('other than the one');
    expect(() => on('get', '/v1/bulk-jobs/{id}/nothing', undefined, ok)).toThrow(
      'is not in contract/routes.ts',
    );
    expect(() => on('get', '/v1/assets', undefined, ok)).toThrow('is not under /v1/bulk-jobs');
  });

  it('takes its method and path from the table, parameters as the router names them', () => {
    const app = new Hono<AuthEnv>();
    const on = declaredRoutes(app, noDeps, '/v1/bulk-jobs');
    on('post', '/v1/bulk-jobs', bulkJobCreateBodySchema, ok);
    on('post', '/v1/bulk-jobs/{id}/cancel', undefined, ok);
    const handlers = app.routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(handlers)).toEqual(new Set(['POST /', 'POST /:id/cancel']));
  });
});
