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

/** Routes still mounted by hand, by their file in server/routes, until each is mounted from its declarations. */
const BY_HAND: Record<string, string[]> = {
  assets: [
    'POST /private/v1/assets/bulk-delete',
    'POST /v1/assets/bulk-delete',
    'DELETE /private/v1/assets/{id}',
    'GET /private/v1/assets',
    'GET /private/v1/assets/authorize-default',
    'GET /private/v1/assets/authorized',
    'GET /private/v1/assets/countByType',
    'GET /private/v1/assets/editable',
    'GET /private/v1/assets/{id}',
    'GET /private/v1/assets/{id}/backoffice-changelog',
    'PATCH /private/v1/assets/{id}',
    'PATCH /private/v1/assets/{id}/position',
    'POST /private/v1/assets',
    'POST /private/v1/assets/validate',
    'POST /private/v1/assets/{id}/generate-icon-from-model',
    'PUT /private/v1/assets/{id}/lock',
    'PUT /private/v1/assets/{id}/unlock',
    'POST /private/v1/assets/predict-texture',
    'DELETE /v1/assets/{id}',
    'GET /v1/assets',
    'GET /v1/assets/authorize-default',
    'GET /v1/assets/authorized',
    'GET /v1/assets/countByType',
    'GET /v1/assets/editable',
    'GET /v1/assets/{id}',
    'GET /v1/assets/{id}/backoffice-changelog',
    'PATCH /v1/assets/{id}',
    'PATCH /v1/assets/{id}/position',
    'POST /v1/assets',
    'POST /v1/assets/validate',
    'POST /v1/assets/{id}/generate-icon-from-model',
    'PUT /v1/assets/{id}/lock',
    'PUT /v1/assets/{id}/unlock',
    'POST /v1/assets/predict-texture',
    'POST /private/v1/assets/using-template',
  ],
};

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
    const byHand = app.routes
      // Middleware of every method (`use`, `all`) is the app's own, not a route.
      .filter((route) => route.method !== 'ALL')
      .map((route) => ({
        key: `${route.method} ${route.path.replace(/:([^/{]+)(\{[^}]*\})?/g, '{$1}')}`,
        handler: route.handler,
      }))
      .filter(({ key, handler }) => !mountedAsDeclared(handler, key))
      .map(({ key }) => key);
    expect([...new Set(byHand)].sort()).toEqual(Object.values(BY_HAND).flat().sort());
  });
});
