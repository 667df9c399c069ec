/**
 * `npm run drill -- kill`: a server killed with SIGKILL while it runs a morph job, derives a
 * model's delivery version and receives an upload, all at once; then another server started on
 * the same PostgreSQL database and files folder. Prints what each was doing at the kill and
 * how the second server ended it: the morph entry and the delivery taken again once their
 * leases passed (the second server's clock is set 12 hours ahead, tests/helpers/clock-ahead.mjs,
 * so that is at its start) and finished; the half-received upload removed by the start's sweep
 * and no row left for it. Exits 1 when one of them is not so.
 *
 * It needs a PostgreSQL server: DATABASE_URL (or TEST_DATABASE_URL) names one, on which a
 * database of its own is made and dropped afterwards. Server/crash-recovery.test.ts runs the
 * upload case as a test.
 */
import { request } from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { AVATARS, fixtureBytes } from '../core/files/test-fixtures';
import { startServer, type TestServer } from '../tests/helpers/server';

const say = (line: string) => console.log(line);
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Waits until `check` answers something, up to `ms`; undefined when it never did. */
async function until<T>(ms: number, check: () => Promise<T | undefined>): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const found = await check();
    if (found !== undefined) return found;
    await pause(50);
  }
  return undefined;
}

async function api<T>(base: string, path: string, token: string, body: unknown): Promise<T> {
  const answer = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await answer.json()) as { data: T };
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function login(base: string): Promise<string> {
  return (
    await api<{ token: string }>(base, '/v1/auth/login', '', {
      email: 'admin@avatar.studio',
      password: 'avatar-studio-admin',
    })
  ).token;
}

async function uploadModel(base: string, token: string, bytes: Uint8Array): Promise<string> {
  const answer = await fetch(`${base}/v1/uploads/model`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
  });
  const json = (await answer.json()) as { data: { url: string } };
  if (!answer.ok) throw new Error(`upload: ${answer.status} ${JSON.stringify(json)}`);
  return json.data.url;
}

/** Runs the drill; true when everything was taken over and finished. */
export async function killDrill(serverUrl: string): Promise<boolean> {
  const database = `drill_kill_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const db = new pg.Client({ connectionString: url.toString() });
  const servers: TestServer[] = [];
  const env = {
    DATABASE_URL: url.toString(),
    JWT_SECRET: 'the-kill-drill-secret-0123456789-0123456789',
    LOG_LEVEL: 'info',
    STATIC_DIR: '/nonexistent',
  };
  try {
    const first = await startServer(env);
    servers.push(first);
    await db.connect();
    const files = join(first.dataDir, 'files');
    const token = await login(first.url);
    // The seeded demo entries name models that are not stored: out of the way.
    await db.query(`DELETE FROM morph_queue WHERE status IN ('queued', 'processing')`);

    say('Preparing: an outfit and a body with models');
    const source = await uploadModel(first.url, token, fixtureBytes(AVATARS, 'halfBodyAPIv2.glb'));
    const body = await uploadModel(
      first.url,
      token,
      fixtureBytes(AVATARS, 'female-animation-catwalk.glb'),
    );
    const outfit = await api<{ id: string }>(first.url, '/v1/assets', token, {
      name: 'Drill outfit',
      type: 'top',
      gender: 'female',
      modelUrl: source,
    });
    const bodyAsset = await api<{ id: string }>(first.url, '/v1/assets', token, {
      name: 'Drill body',
      type: 'body',
      gender: 'female',
      modelUrl: body,
    });

    // 1. A morph job, running.
    const [entry] = await api<{ id: string }[]>(first.url, '/v1/morphed-assets/generate', token, {
      sourceAssetId: outfit.id,
      bodyAssetIds: [bodyAsset.id],
    });
    const processing = await until(60_000, async () => {
      const { rows } = await db.query<{ status: string }>(
        'SELECT status FROM morph_queue WHERE id = $1',
        [entry!.id],
      );
      return rows[0]?.status === 'queued' ? undefined : rows[0]?.status;
    });
    // 2. A delivery being derived (an upload of a model waits for it).
    const model = fixtureBytes(AVATARS, 'male-emissive.glb');
    const delivering = uploadModel(first.url, token, model).catch((error: Error) => error.message);
    const claimed = await until(60_000, async () => {
      const { rows } = await db.query<{ model_key: string }>(
        `SELECT model_key FROM model_deliveries
         WHERE status = 'pending' AND claimed_at IS NOT NULL AND original_size = $1`,
        [model.byteLength],
      );
      return rows[0]?.model_key;
    });
    // 3. An upload half received.
    const big = new Uint8Array(20 * 1024 * 1024);
    big.set(new TextEncoder().encode('glTF'));
    new DataView(big.buffer).setUint32(4, 2, true);
    new DataView(big.buffer).setUint32(8, big.byteLength, true);
    const upload = request(`${first.url}/v1/uploads/model`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-length': String(big.byteLength) },
    });
    upload.on('error', () => undefined);
    upload.write(big.subarray(0, 8 * 1024 * 1024));
    const partial = () =>
      readdirSync(files).filter(
        (name) => name.startsWith('.upload-') && statSync(join(files, name)).size > 0,
      );
    await until(30_000, () => Promise.resolve(partial().length > 0 ? true : undefined));

    const { rows: atKill } = await db.query<{ status: string; progress: number }>(
      'SELECT status, progress FROM morph_queue WHERE id = $1',
      [entry!.id],
    );
    const { rows: deliveryAtKill } = await db.query<{ status: string }>(
      'SELECT status FROM model_deliveries WHERE model_key = $1',
      [claimed ?? ''],
    );
    process.kill(first.pid, 'SIGKILL');
    const killedAt = Date.now();
    upload.destroy();
    await delivering;
    const inFlight = {
      morph: atKill[0]?.status === 'processing',
      delivery: deliveryAtKill[0]?.status === 'pending',
      upload: partial().length === 1,
    };
    say('At the SIGKILL:');
    say(
      `  morph entry: ${atKill[0]?.status ?? 'none'} at ${atKill[0]?.progress ?? 0}% (first seen ${processing ?? 'never'})`,
    );
    say(`  delivery of ${claimed ?? '(never claimed)'}: ${deliveryAtKill[0]?.status ?? 'none'}`);
    say(`  partial upload files: ${partial().length}`);
    await pause(200);

    const second = await startServer(
      {
        ...env,
        CLOCK_AHEAD_DAYS: '0.5',
        NODE_OPTIONS: `--import=${resolve('tests/helpers/clock-ahead.mjs')}`,
      },
      { dataDir: first.dataDir },
    );
    servers.push(second);
    const morphEnd = await until(180_000, async () => {
      const { rows } = await db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM morph_queue WHERE id = $1',
        [entry!.id],
      );
      const row = rows[0];
      return row && (row.status === 'completed' || row.status === 'failed') ? row : undefined;
    });
    const deliveryEnd = await until(180_000, async () => {
      const { rows } = await db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM model_deliveries WHERE model_key = $1',
        [claimed ?? ''],
      );
      const row = rows[0];
      return row && row.status !== 'pending' ? row : undefined;
    });
    const { rows: strays } = await db.query<{ key: string }>(
      `SELECT key FROM stored_files WHERE size = $1`,
      [big.byteLength],
    );
    const seconds = ((Date.now() - killedAt) / 1000).toFixed(1);
    say(
      `After another server started on the same database and files (${seconds} s after the kill):`,
    );
    say(
      `  morph entry: ${morphEnd ? `${morphEnd.status} after ${morphEnd.attempts} claims` : 'NOT finished'}`,
    );
    say(
      `  delivery: ${deliveryEnd ? `${deliveryEnd.status} after ${deliveryEnd.attempts} claims` : 'NOT finished'}`,
    );
    say(`  partial upload files: ${partial().length}; rows for it: ${strays.length}`);
    const swept = /Removed \d+ partial uploads and \d+ unreferenced files\./.exec(
      second.output(),
    )?.[0];
    say(`  the start's sweep: ${swept ?? 'nothing removed'}`);

    const ok =
      inFlight.morph &&
      inFlight.delivery &&
      inFlight.upload &&
      morphEnd?.status === 'completed' &&
      deliveryEnd?.status === 'ready' &&
      partial().length === 0 &&
      strays.length === 0;
    if (!inFlight.morph || !inFlight.delivery) {
      say('  (a job had ended before the kill: not a test of its recovery; run the drill again)');
    }
    say(ok ? 'Kill drill: OK' : 'Kill drill: FAILED');
    return ok;
  } finally {
    await db.end().catch(() => undefined);
    for (const server of servers.reverse()) await server.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

/** `npm run drill -- kill` (scripts/drill.ts). */
export async function killDrillCommand(): Promise<number> {
  const serverUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    console.error(
      'Kill drill: DATABASE_URL must name a PostgreSQL server (a database is made on it)',
    );
    return 1;
  }
  return (await killDrill(serverUrl)) ? 0 : 1;
}
