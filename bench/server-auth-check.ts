/**
 * What the session check of every authenticated request costs (server/auth/session-check.ts):
 * p50/p95 latency and requests per second of GET /v1/assets?limit=10 with a bearer token, on
 * two apps over one in-memory PGlite database, one with the real check (a cached lookup per
 * request) and one whose check answers "live" without looking (what the server did before
 * sessions ended their access tokens). Both are measured in the same run, in alternating
 * rounds so that drift hits both alike. Goal: under 1 ms added at p95. Run:
 * npm run bench -- auth-check
 */
import { performance } from 'node:perf_hooks';
import { decodeJwt } from 'jose';
import { createApp } from '../server/app';
import type { SessionCheck } from '../server/auth/session-check';
import { createPgliteDb } from '../server/db';
import { createDevMailbox } from '../server/mail';
import { migrate } from '../server/migrate';
import { signedInBenchApp } from './server-app';
import { percentile } from './stats';

const ASSETS = 1000;
const ROUNDS = 10;
/** Sequential requests per round and mode (latency). */
const SEQUENTIAL = 200;
/** Requests in flight at once for the throughput figure. */
const CONCURRENCY = 16;
const CONCURRENT = 800;

export async function benchServerAuthCheck(): Promise<void> {
  const db = await createPgliteDb();
  await migrate(db);
  await db.exec(`
    INSERT INTO assets (id, name, type, gender, position, created_at, updated_at)
    SELECT lpad(to_hex(i), 24, '0'), 'Asset ' || i, 'outfit', 'female', i,
           timestamptz '2024-01-01' + i * interval '1 minute',
           timestamptz '2024-01-01' + i * interval '1 minute'
    FROM generate_series(1, ${ASSETS}) AS i;
    ANALYZE;
  `);
  const { app: checked, token, config } = await signedInBenchApp(db);
  const userId = decodeJwt(token).sub!;
  const alwaysLive: SessionCheck = {
    lookup: () =>
      Promise.resolve({
        userId,
        role: 'admin',
        expiresAt: new Date(8.64e15),
        revoked: false,
        disabled: false,
        secondFactor: false,
      }),
    close: () => Promise.resolve(),
  };
  const unchecked = createApp({ db, config, mail: createDevMailbox(), sessions: alwaysLive });
  const modes = { 'check off (before)': unchecked, 'check on (after)': checked };
  const headers = { authorization: `Bearer ${token}` };

  const once = async (app: typeof checked) => {
    const response = await app.request('/v1/assets?limit=10', { headers });
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    await response.arrayBuffer();
  };
  const times = new Map<string, number[]>(Object.keys(modes).map((name) => [name, []]));
  const busy = new Map<string, number>(Object.keys(modes).map((name) => [name, 0]));
  // Warm-up: JIT, the query plan, the session cache.
  for (const app of Object.values(modes)) for (let i = 0; i < 100; i += 1) await once(app);

  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, app] of Object.entries(modes)) {
      for (let i = 0; i < SEQUENTIAL; i += 1) {
        const start = performance.now();
        await once(app);
        times.get(name)!.push(performance.now() - start);
      }
      const start = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < CONCURRENT / ROUNDS) {
            next += 1;
            await once(app);
          }
        }),
      );
      busy.set(name, busy.get(name)! + (performance.now() - start));
    }
  }
  await db.close();

  const rows = [...times].map(([name, list]) => {
    return {
      name,
      p50: percentile(list, 50),
      p95: percentile(list, 95),
      rps: CONCURRENT / (busy.get(name)! / 1000),
    };
  });
  const [off, on] = rows as [(typeof rows)[0], (typeof rows)[0]];
  console.log(
    `GET /v1/assets?limit=10 on ${ASSETS} assets, bearer token; ${ROUNDS * SEQUENTIAL} sequential requests per mode (latency), ${CONCURRENT} with ${CONCURRENCY} in flight (throughput)`,
  );
  console.table(
    rows.map((r) => ({
      mode: r.name,
      'p50 ms': Number(r.p50.toFixed(3)),
      'p95 ms': Number(r.p95.toFixed(3)),
      'requests/s': Math.round(r.rps),
    })),
  );
  console.log(
    `p95 added by the check: ${(on.p95 - off.p95).toFixed(3)} ms (goal under 1 ms); p95 ratio ${(on.p95 / off.p95).toFixed(2)}x; throughput ratio ${(on.rps / off.rps).toFixed(2)}x`,
  );
}
