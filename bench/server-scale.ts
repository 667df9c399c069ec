/**
 * `npm run bench -- scale [--runs 9] [--small 10000] [--large 1000000] [--only activity,trash]`:
 * the list screens and the writes (those whose names contain one of `--only`'s words) at 10,000
 * and at a million assets and events (100,000 users), on PostgreSQL,
 * through the HTTP API as the admin. It seeds with `npm run seed:scale`'s code (the small size,
 * then grows the same database to the large one), serves the app on a loopback port and prints,
 * per operation, the median and p95 at both sizes and their ratio. The database is the server
 * of DATABASE_URL (a database of its own on it, dropped at the end), or a throwaway cluster
 * started like scripts/pg.sh does. Measurements, never pass/fail.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import { createApp } from '../server/app';
import { createSessionCheck } from '../server/auth/session-check';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, loadConfig } from '../server/config';
import { createPgDb } from '../server/db';
import { createEventBus } from '../server/event-bus';
import { log as serverLog } from '../server/log';
import { createDevMailbox } from '../server/mail';
import { seedScale } from '../scripts/seed-scale';
import { freePort } from '../tests/helpers/server';
import { benchOptions } from './args';
import { createDatabase } from './pg-database';
import { percentile } from './stats';

interface Timing {
  median: number;
  p95: number;
  /** What the answer said: a total, or the status of a refusal. */
  note: string;
}

/** A PostgreSQL server for the bench: DATABASE_URL's, or a throwaway cluster. */
export async function startPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const name = `avatar_studio_scale_${process.pid}`;
  const existing = process.env.DATABASE_URL;
  if (existing) {
    const database = await createDatabase(existing, name);
    return { url: database.url, stop: database.drop };
  }
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  const bin = `/usr/lib/postgresql/${versions.at(-1)}/bin`;
  const root = mkdtempSync(join(tmpdir(), 'avatar-studio-scale-'));
  const asPostgres = (command: string, args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'ignore' })
      : execFileSync(command, args, { stdio: 'ignore' });
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', root]);
  const port = await freePort();
  asPostgres(`${bin}/initdb`, ['-D', `${root}/data`, '-A', 'trust', '-U', 'postgres']);
  asPostgres(`${bin}/pg_ctl`, [
    '-D',
    `${root}/data`,
    '-l',
    `${root}/server.log`,
    '-w',
    '-o',
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      asPostgres(`${bin}/pg_ctl`, ['-D', `${root}/data`, '-m', 'fast', '-w', 'stop']);
      rmSync(root, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

type Request = { method?: string; body?: unknown };
interface Answer {
  data?: { id?: string } & { id?: string }[];
  pagination?: { totalDocs: number; totalPages: number; totalIsEstimate?: boolean };
  error?: { code?: string };
}

/** The operations of one size: their ids come from the data (the first answers). */
async function measureAll(
  base: string,
  token: string,
  adminId: string,
  { runs, timeoutMs, only }: { runs: number; timeoutMs: number; only: string[] },
  log: (line: string) => void,
): Promise<Map<string, Timing>> {
  const call = async (path: string, request: Request = {}) => {
    const response = await fetch(`${base}${path}`, {
      signal: AbortSignal.timeout(timeoutMs),
      method: request.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer };
  };
  const results = new Map<string, Timing>();
  const time = async (name: string, path: string | (() => string), request?: () => Request) => {
    if (only.length > 0 && !only.some((word) => name.includes(word))) return;
    const times: number[] = [];
    let note = '';
    for (let run = 0; run < runs + 1; run += 1) {
      const target = typeof path === 'string' ? path : path();
      const started = performance.now();
      const answer = await call(target, request?.()).catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'TimeoutError') return undefined;
        throw error;
      });
      const elapsed = performance.now() - started;
      if (!answer) {
        // Once is enough to know: the database stops the statement at the same limit.
        times.push(elapsed);
        note = `over ${timeoutMs / 1000} s`;
        break;
      }
      const pagination = answer.body.pagination as
        { totalDocs: number; totalIsEstimate?: boolean } | undefined;
      note =
        answer.status >= 300
          ? `${answer.status} ${String(answer.body.error?.code ?? '')}`
          : pagination
            ? `${pagination.totalIsEstimate ? '~' : ''}${pagination.totalDocs}`
            : '';
      // The first run warms the plan and the caches.
      if (run > 0) times.push(elapsed);
    }
    const timing = { median: percentile(times, 50), p95: percentile(times, 95), note };
    results.set(name, timing);
    log(`  ${name.padEnd(48)} ${timing.median.toFixed(1).padStart(8)} ms  ${note}`);
  };
  /** Page 1, the middle page and the last page of `path`, then each variant. */
  const screen = async (label: string, path: string, variants: Record<string, string>) => {
    const join = path.includes('?') ? '&' : '?';
    const first = await call(`${path}${join}limit=25`);
    const totalPages = Number(first.body.pagination?.totalPages ?? 1);
    await time(`${label}: page 1`, `${path}${join}limit=25`);
    await time(
      `${label}: middle page`,
      `${path}${join}limit=25&page=${Math.max(1, Math.ceil(totalPages / 2))}`,
    );
    await time(`${label}: last page`, `${path}${join}limit=25&page=${Math.max(1, totalPages)}`);
    for (const [name, query] of Object.entries(variants)) {
      await time(`${label}: ${name}`, `${path}${join}limit=25&${query}`);
    }
  };

  const tags = await call('/v1/tags?limit=1&search=Scale');
  const tagId = String(tags.body.data?.[0]?.id);
  const applications = await call('/v1/applications?limit=1&search=Scale%20application%201');
  const applicationId = String(applications.body.data?.[0]?.id);
  const sorts = (fields: string[]) =>
    Object.fromEntries(
      fields.flatMap((f) => [
        [`sort ${f}`, `order=${f}`],
        [`sort -${f}`, `order=-${f}`],
      ]),
    );

  await screen('assets', '/v1/assets', {
    'search "hoodie"': 'search=hoodie',
    'search "9999"': 'search=9999',
    'filter type': 'type=hair',
    'filter gender': 'gender=female',
    'filter tag': `tagId=${tagId}`,
    'filter application': `applicationId=${applicationId}`,
    'filter locked': 'locked=true',
    ...sorts(['name', 'type', 'gender', 'createdAt', 'updatedAt']),
  });
  await time('assets: count by type', '/v1/assets/countByType');
  await time('dashboard', '/v1/dashboard');
  await screen('application assets', `/v1/application-assets?applicationId=${applicationId}`, {
    'search "hoodie"': 'search=hoodie',
    'filter type': 'type=hair',
    ...sorts(['name', 'createdAt']),
  });
  await screen('user assets', `/v1/user-assets/${adminId}`, {
    'search "hoodie"': 'search=hoodie',
    'filter type': 'type=hair',
    ...sorts(['name', 'createdAt']),
  });
  await screen('tags', '/v1/tags', { 'search "tag 1"': 'search=tag%201', ...sorts(['name']) });
  await screen('cage meshes', '/v1/cage-meshes', {
    'search "slim"': 'search=slim',
    'filter gender': 'gender=female',
    ...sorts(['createdAt', 'updatedAt']),
  });
  await screen('morphed assets', '/private/v1/morphed-assets', {
    'search "morph 1"': 'search=morph%201',
    ...sorts(['name']),
  });
  await screen('morph queue', '/v1/morphed-asset-queue', {
    'filter status': 'status=failed',
    ...sorts(['updatedAt', 'status']),
  });
  await screen('users', '/private/v1/users', {
    'search "user12"': 'search=user12',
    'filter role': 'role=developer',
    'filter status': 'status=disabled',
    ...sorts(['createdAt', 'lastSignInAt', 'role']),
  });
  await time('invitations: all pending', '/private/v1/invitations');
  await screen('activity', '/v1/activity', {
    'filter kind': 'kind=tag',
    'filter actor': `actorId=${adminId}`,
    'search "hoodie"': 'search=hoodie',
    'sort createdAt': 'order=createdAt',
  });
  await screen('trash', '/v1/trash', {
    'search "boots"': 'search=boots',
    'filter kind': 'kind=asset',
    ...sorts(['name']),
  });

  // Writes on assets in the middle of the order: each run takes the next one.
  const middle = await call('/v1/assets?limit=100&order=name&page=2&locked=false');
  const ids = (middle.body.data as { id: string }[]).map((a) => a.id);
  let next = 0;
  await time(
    'write: move to top',
    () => `/v1/assets/${ids[next++ % ids.length]}/position`,
    () => ({ method: 'PATCH', body: { position: 1 } }),
  );
  await time(
    'write: rename',
    () => `/v1/assets/${ids[next++ % ids.length]}`,
    () => ({ method: 'PATCH', body: { name: `Renamed ${next}` } }),
  );
  const deleted: string[] = [];
  await time(
    'write: delete',
    () => {
      const id = ids[next++ % ids.length]!;
      deleted.push(id);
      return `/v1/assets/${id}`;
    },
    () => ({ method: 'DELETE' }),
  );
  await time(
    'write: restore',
    () => '/v1/trash/bulk-restore',
    () => ({ method: 'POST', body: { items: [{ kind: 'asset', id: deleted.shift() }] } }),
  );
  return results;
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD }),
  });
  const body = (await response.json()) as { data?: { token?: string } };
  if (!body.data?.token) throw new Error(`Sign-in failed: ${JSON.stringify(body)}`);
  return body.data.token;
}

/** Seeds the small size, measures, grows to the large size, measures, prints the table. */
export async function benchServerScale(args: string[] = []): Promise<void> {
  const values = benchOptions(args, {
    runs: '9',
    timeout: '20',
    small: '10000',
    large: '1000000',
    only: '',
  });
  const only = values.only.split(',').filter(Boolean);
  const runs = Number(values.runs);
  const timeoutMs = Number(values.timeout) * 1000;
  const sizes = [Number(values.small), Number(values.large)];
  // A line per request would bury the table.
  serverLog.level = 'warn';
  const postgres = await startPostgres();
  const db = createPgDb(postgres.url);
  const log = (line: string) => console.log(line);
  try {
    const config = loadConfig({
      JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256!',
      DATA_DIR: '/nonexistent/avatar-studio-bench',
      STATIC_DIR: '/nonexistent/avatar-studio-bench-dist',
      NODE_ENV: 'development',
      DATABASE_URL: postgres.url,
    });
    const measured: Map<string, Timing>[] = [];
    for (const assets of sizes) {
      const started = performance.now();
      await seedScale(db, { assets, users: assets / 10 }, log);
      log(
        `Seeded ${assets.toLocaleString('en')} assets, ${(assets / 10).toLocaleString('en')} users in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      // The app's own pool, whose statements stop where the bench stops waiting.
      const url = new URL(postgres.url);
      url.searchParams.set('options', `-c statement_timeout=${timeoutMs}`);
      const appDb = createPgDb(url.toString());
      // Its own LISTENers, stopped before the pool: left open they reconnect to the dropped database.
      const sessions = createSessionCheck(appDb);
      const events = createEventBus(appDb);
      const app = createApp({ db: appDb, config, mail: createDevMailbox(), sessions, events });
      const port = await freePort();
      const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port });
      try {
        const base = `http://127.0.0.1:${port}`;
        const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [
          DEFAULT_ADMIN_EMAIL,
        ]);
        const token = await signIn(base);
        measured.push(await measureAll(base, token, rows[0]!.id, { runs, timeoutMs, only }, log));
      } finally {
        await new Promise((resolve) => server.close(resolve));
        await sessions.close();
        await events.close();
        await appDb.close();
      }
    }
    const [small, large] = measured as [Map<string, Timing>, Map<string, Timing>];
    const [smallLabel, largeLabel] = sizes.map((n) => n.toLocaleString('en'));
    console.log(
      `\n${'operation'.padEnd(48)} ${`${smallLabel} p50`.padStart(13)} ${'p95'.padStart(8)} ${`${largeLabel} p50`.padStart(15)} ${'p95'.padStart(8)} ${'ratio'.padStart(7)}  answer at ${largeLabel}`,
    );
    for (const [name, at] of large) {
      const before = small.get(name);
      const ratio = before ? at.median / before.median : Number.NaN;
      console.log(
        `${name.padEnd(48)} ${before?.median.toFixed(1).padStart(13)} ${before?.p95.toFixed(1).padStart(8)} ${at.median.toFixed(1).padStart(15)} ${at.p95.toFixed(1).padStart(8)} ${`${ratio.toFixed(1)}x`.padStart(7)}  ${at.note}`,
      );
    }
    console.log(
      `(ms through HTTP on loopback, ${runs} runs each after one warm-up; ~N: an estimate)`,
    );
  } finally {
    await db.close();
    await postgres.stop();
  }
}
