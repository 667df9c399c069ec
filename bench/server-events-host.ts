/**
 * The server side of bench/server-events.ts, in a process of its own so that its memory is the
 * server's alone: an in-memory PGlite database, the reference API on a loopback port, one
 * asset to change, and `clients` developers with an access token each (one user may hold only
 * a few streams). It answers the parent's messages: `memory` (after a GC) and `burst` (lock
 * and unlock the asset `count` times through the API, one change after another).
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { signAccessToken } from '../server/auth/access-token';
import { startRefreshFamily } from '../server/auth/refresh-tokens';
import { createPgliteDb } from '../server/db';
import { newId } from '../server/ids';
import { migrate } from '../server/migrate';
import { createUser } from '../server/users';
import { signedInBenchApp } from './server-app';

export type HostRequest = { type: 'memory' } | { type: 'burst'; count: number };
export type HostReply =
  | { type: 'ready'; base: string; token: string; tokens: string[]; assetId: string }
  | { type: 'memory'; heapBytes: number; rssBytes: number }
  | { type: 'burst'; ms: number };

const send = (reply: HostReply) => process.send?.(reply);

const clients = Number(process.argv[2] ?? 100);
const db = await createPgliteDb();
await migrate(db);
const { app, token, config } = await signedInBenchApp(db);
const settings = { secret: config.keys.tokenSigning, ttlSeconds: 3600, now: () => new Date() };
const tokens = await Promise.all(
  Array.from({ length: clients }, async (_, i) => {
    // Signed in by a session of their own: the password hash is never checked.
    const user = await createUser(db, {
      email: `developer${i}@bench.example`,
      passwordHash: 'unused',
      role: 'developer',
      verifiedAt: new Date(),
      now: new Date(),
    });
    const { sessionId } = await startRefreshFamily(db, {
      userId: user.id,
      now: new Date(),
      ttlSeconds: 3600,
    });
    return signAccessToken(settings, user, sessionId);
  }),
);
const assetId = newId();
await db.query(
  `INSERT INTO assets (id, name, type, gender, position, created_at, updated_at)
   VALUES ($1, 'Bench asset', 'outfit', 'female', 1, now(), now())`,
  [assetId],
);
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
  send({ type: 'ready', base: `http://127.0.0.1:${info.port}`, token, tokens, assetId }),
);

process.on('message', (message: HostRequest) => {
  if (message.type === 'memory') {
    globalThis.gc?.();
    const usage = process.memoryUsage();
    send({ type: 'memory', heapBytes: usage.heapUsed + usage.external, rssBytes: usage.rss });
  } else {
    void burst(message.count).then((ms) => send({ type: 'burst', ms }));
  }
});
process.on('disconnect', () => {
  server.close();
  process.exit(0);
});

/** `count` changes, each its own request and transaction: lock, unlock, lock, ... */
async function burst(count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const action = i % 2 === 0 ? 'lock' : 'unlock';
    const response = await app.request(`/v1/assets/${assetId}/${action}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (response.status !== 200) throw new Error(`${action} answered ${response.status}`);
  }
  return performance.now() - started;
}
