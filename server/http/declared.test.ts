import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { bulkJobCreateBodySchema } from '../../contract/bulk-jobs';
import { createApp } from '../app';
import type { AuthEnv } from '../auth/middleware';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { createDevMailbox } from '../mail';
import type { Storage } from '../storage';
import { testConfig } from '../test-app';
import { declaredRoutes, mountedAsDeclared } from './declared';

/** `METHOD /path/{param}` of each route of `app` not mounted from its declaration. */
function mountedByHand(app: Hono<AuthEnv>): string[] {
  const byHand = app.routes
    // Middleware of every method (`use`, `all`) is the app's own, not a route.
    .filter((route) => route.method !== 'ALL')
    .map((route) => ({
      key: `${route.method} ${route.path.replace(/:([^/{]+)(\{[^}]*\})?/g, '{$1}')}`,
      handler: route.handler,
    }))
    .filter(({ key, handler }) => !mountedAsDeclared(handler, key))
    .map(({ key }) => key);
  return [...new Set(byHand)].sort();
}

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

describe('the app', () => {
  it('mounts every route from its declaration (contract/routes), none by hand', () => {
    // Every optional mount on: the metrics, the API documents and the dev mailbox.
    const config = testConfig({ METRICS_TOKEN: 'm'.repeat(32), API_DOCS: 'on' });
    const mailbox = createDevMailbox({ now: () => new Date() });
    const app = createApp({ config, db: {} as Db, mail: mailbox, mailbox, storage: {} as Storage });
    expect(mountedByHand(app)).toEqual([]);
    // A handler mounted by hand, even at a declared address, is named.
    app.get('/v1/tags/:tagId', (c) => c.json({ data: null }));
    app.post('/v1/somewhere-else', (c) => c.json({ data: null }));
    expect(mountedByHand(app)).toEqual(['GET /v1/tags/{tagId}', 'POST /v1/somewhere-else']);
  });
});
