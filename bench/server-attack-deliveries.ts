/**
 * Delivery fairness under hostile uploads, part of `npm run bench -- attack` when
 * TEST_DATABASE_URL names a PostgreSQL server: a production start on a database of its own
 * (made there and dropped at the end); two uploaders each upload 3 slow models (textures of
 * 4096² pixels, the largest the caps allow, a few KB each), then a third uploads an ordinary
 * avatar. Prints how long the third one's delivery version took from its upload, and the order
 * the derivations finished in.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';
import { webpTexturedModel } from '../server/test-models';
import { createDatabase } from './pg-database';
import { startProduction } from './production';

const ADMIN = 'admin@bench-deliveries.test';
const PASSWORD = 'correct horse battery staple 42';
const ORDINARY = resolve('..', 'shared', 'fixtures', 'avatars', 'halfBodyAPIv2.glb');
const SLOW_SIDE = 4096;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchDeliveryFairness(): Promise<void> {
  const database = await createDatabase(
    process.env.TEST_DATABASE_URL!,
    `bench_deliveries_${randomBytes(4).toString('hex')}`,
  );
  const db = new pg.Client({ connectionString: database.url });
  const server = startProduction({
    name: 'deliveries',
    firstPort: 19000,
    env: { DATABASE_URL: database.url, ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: PASSWORD },
  });
  const { base } = server;
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json().catch(() => undefined)) as
        { data?: { token?: string; url?: string } } | undefined,
    };
  };
  const signIn = async (email: string) => {
    const answer = await call('POST', '/v1/auth/login', { email, password: PASSWORD });
    if (!answer.body?.data?.token) throw new Error(`Sign-in answered ${answer.status}`);
    return answer.body.data.token;
  };
  const upload = async (token: string, file: Uint8Array) => {
    const started = performance.now();
    const res = await fetch(`${base}/v1/uploads/model`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: new Uint8Array(file),
    });
    const body = (await res.json()) as { data?: { url?: string } };
    return {
      status: res.status,
      key: body.data?.url?.slice('file://'.length),
      ms: performance.now() - started,
    };
  };
  try {
    const slow = await Promise.all(
      Array.from({ length: 6 }, (_, i) => webpTexturedModel(SLOW_SIDE, 40 + i * 20)),
    );
    await server.ready();
    await db.connect();
    const adminToken = await signIn(ADMIN);
    for (const who of ['a', 'b']) {
      const answer = await call('POST', '/v1/auth/signup', {
        email: `${who}@bench-deliveries.test`,
        password: PASSWORD,
      });
      if (answer.status !== 200) throw new Error(`Sign-up answered ${answer.status}`);
    }
    await db.query(
      `UPDATE users SET role = 'developer', verified_at = now()
       WHERE email IN ('a@bench-deliveries.test', 'b@bench-deliveries.test')`,
    );
    const a = await signIn('a@bench-deliveries.test');
    const b = await signIn('b@bench-deliveries.test');
    const load = loadavg()[0]!.toFixed(1);
    const slowUploads = [0, 1, 2].flatMap((i) => [upload(a, slow[i]!), upload(b, slow[i + 3]!)]);
    // Their six are queued before the third uploader's model.
    for (let i = 0; ; i += 1) {
      if (i > 1200) throw new Error('The slow models were never queued');
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM model_deliveries WHERE status = 'pending'",
      );
      if (rows[0]!.n >= 6) break;
      await pause(100);
    }
    const asked = performance.now();
    const ordinary = await upload(adminToken, readFileSync(ORDINARY));
    let readyMs = NaN;
    for (let i = 0; ; i += 1) {
      if (i > 3000) throw new Error('The ordinary avatar was never delivered');
      const { rows } = await db.query<{ status: string }>(
        'SELECT status FROM model_deliveries WHERE model_key = $1',
        [ordinary.key],
      );
      if (rows[0] && rows[0].status !== 'pending') {
        readyMs = performance.now() - asked;
        break;
      }
      await pause(100);
    }
    const slowDone = await Promise.all(slowUploads);
    const { rows } = await db.query<{ who: string; status: string }>(
      `SELECT coalesce(split_part(u.email, '@', 1), 'server') AS who, d.status
       FROM model_deliveries d LEFT JOIN users u ON u.id = d.requested_by
       WHERE d.requested_by IS NOT NULL ORDER BY d.updated_at`,
    );
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `Delivery fairness (PostgreSQL, load ${load}-${loadavg()[0]!.toFixed(1)}): two uploaders' 6 models of ${SLOW_SIDE}² texture pixels queued first; ` +
        `the third uploader's avatar delivered ${s(readyMs)} after its upload began (its upload answered in ${s(ordinary.ms)}, ${ordinary.status}); ` +
        `the slow uploads answered in ${slowDone.map((u) => s(u.ms)).join(', ')}`,
    );
    console.log(`  finished in order: ${rows.map((row) => `${row.who}:${row.status}`).join(' ')}`);
  } finally {
    await server.stop();
    await db.end().catch(() => undefined);
    await database.drop();
  }
}
