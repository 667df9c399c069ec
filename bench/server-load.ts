/**
 * `npm run bench -- load [--clients 200] [--seconds 60] [--warmup 15] [--soak 0] [--think 2000]
 * [--template scale_1m] [--metrics-out <file>] [--sql <file>] [--pg-log-ms <ms>]`: two instances of the real server on one
 * PostgreSQL database (a copy of `--template`, a database seeded by `npm run seed:scale`, on
 * the server of TEST_DATABASE_URL or DATABASE_URL; dropped at the end) and one S3 bucket (Ceph,
 * as tests/helpers/instances.ts starts them), behind the round-robin proxy (in a process of its
 * own), under `--clients` concurrent signed-in clients doing what admins do: asset lists with
 * filters and sorts, other lists, searches, opening assets, saves with If-Match, tag changes,
 * uploads of a fixture model, and open event streams. The seed's `/demo/` file placeholders are
 * cleared in the copy first (clearDemoPlaceholders: a start would otherwise spend an UPDATE per
 * row on them, far past the wait for its health check).
 *
 * Each client pauses between two actions (`--think`, thinkLoad); `--think 0` runs the closed
 * loop with no pause, from autocannon, one instance per kind of call (its connections are that
 * kind's clients), so each kind has its own latencies. Both print the offered rate. For the
 * measured phase it prints the CPU time of each process group (cpu-split.ts) and per answered
 * request. `--sql` runs a file on the copy first (to try an index); `--pg-log-ms` has
 * PostgreSQL log the copy's statements slower than that, with their durations. Prints per kind p50/p95/p99, throughput and
 * errors by status; each instance's resident memory and heap (from its /metrics) at the start,
 * after the warm-up and at the end, and every minute of a `--soak` of that many seconds after
 * the run, with a verdict on it, "flat" or "growing" (memoryVerdict states the rule). Every 5 s
 * both instances' /metrics are scraped into `--metrics-out` (JSON), what
 * scripts/render-dashboard.ts draws the Grafana dashboard's panels from. Measurements, never
 * pass/fail; the machine's cores are printed with them.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { startInstances } from '../tests/helpers/instances';
import { cpuRows, named, ofUser, snapshot, tree, uidOf, type Group } from './cpu-split';

const METRICS_TOKEN = randomBytes(24).toString('hex');
const ADMIN = { email: 'admin@avatar.studio', password: 'avatar-studio-admin' };
const MODEL = readFileSync(
  resolve('..', 'shared', 'fixtures', 'avatars', 'female-animation-catwalk.glb'),
);
/** Signed-in sessions the clients share (as admins in several tabs and browsers). */
const SESSIONS = 8;
/** A stream per tab; one user may hold 10 per server (routes/events.ts). */
const MAX_STREAMS = 16;
const SCRAPE_MS = 5000;
const READ_GOAL_MS = 500;
/**
 * The default pause between two actions of one client, ms: an admin reads a list or a form
 * before the next click. `--think 0` is the closed loop with no pause, the capacity figure.
 */
const THINK_MS = 2000;

/** Shares of the clients, by kind of work. */
const MIX = {
  'list assets': 0.35,
  'list others': 0.12,
  search: 0.15,
  'open asset': 0.15,
  save: 0.08,
  'tag change': 0.05,
  upload: 0.02,
} as const;
type Work = keyof typeof MIX;
/** Kinds of call whose latency goal is the read goal. */
const READS = new Set(['list assets', 'list others', 'search', 'open asset', 'save: GET']);

interface Data {
  tokens: string[];
  assetIds: string[];
  tagIds: string[];
  userId: string;
}

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
let turn = 0;
const headersFor = (data: Data, more: Record<string, string> = {}) => ({
  authorization: `Bearer ${data.tokens[turn++ % data.tokens.length]!}`,
  ...more,
});

type Req = autocannon.Request & { kind: string };
/** What a client keeps between the requests of one round (autocannon's context). */
type Context = Record<string, string | undefined>;

/** The requests one client of `work` repeats; setupRequest picks each one's target. */
function requestsOf(work: Work, data: Data): Req[] {
  const get = (kind: string, path: () => string): Req => ({
    kind,
    method: 'GET',
    setupRequest: (req) => ({ ...req, path: path(), headers: headersFor(data) }),
  });
  const json = { 'content-type': 'application/json' };
  switch (work) {
    case 'list assets':
      return [
        get('list assets', () => {
          const filter = pick([
            '',
            '&type=hair',
            '&gender=female',
            `&tagId=${pick(data.tagIds)}`,
            '&locked=true',
          ]);
          const order = pick(['name', '-name', 'createdAt', '-createdAt', '-updatedAt', 'type']);
          const page = 1 + Math.floor(Math.random() * Math.random() * 40);
          return `/v1/assets?limit=25&order=${order}&page=${page}${filter}`;
        }),
      ];
    case 'list others':
      return [
        get('list others', () =>
          pick([
            '/v1/tags?limit=25&order=name',
            '/private/v1/users?limit=25&order=-createdAt',
            '/private/v1/users?limit=25&role=developer',
            `/v1/activity?limit=25&actorId=${data.userId}`,
            '/v1/activity?limit=25&kind=tag',
            '/v1/trash?limit=25',
            '/v1/morphed-asset-queue?limit=25&order=-updatedAt',
            '/v1/assets/countByType',
          ]),
        ),
      ];
    case 'search':
      return [
        get('search', () => {
          const words = ['hoodie', 'boots', 'hair', 'jacket', 'slim', '1234', 'scale 99'];
          const where = pick(['/v1/assets', '/v1/assets', '/private/v1/users', '/v1/tags']);
          return `${where}?limit=25&search=${encodeURIComponent(pick(words))}`;
        }),
      ];
    case 'open asset':
      return [get('open asset', () => `/v1/assets/${pick(data.assetIds)}`)];
    case 'save': {
      // Each save reads the asset, then changes its name against the version it read.
      let next = Math.floor(Math.random() * data.assetIds.length);
      return [
        {
          kind: 'save: GET',
          method: 'GET',
          setupRequest: (req, context) => {
            const id = data.assetIds[next++ % data.assetIds.length]!;
            (context as Context).id = id;
            return { ...req, path: `/v1/assets/${id}`, headers: headersFor(data) };
          },
          onResponse: (status, _body, context, headers) => {
            (context as Context).etag = status === 200 ? headers?.etag : undefined;
          },
        },
        {
          kind: 'save: PATCH If-Match',
          method: 'PATCH',
          setupRequest: (req, context) => {
            const { id, etag } = context as Context;
            // A read that failed leaves nothing to save against: the client starts over (a
            // falsy request is autocannon's way to say so, which its types do not allow for).
            if (etag === undefined) return null as unknown as autocannon.Request;
            return {
              ...req,
              path: `/v1/assets/${id}`,
              headers: headersFor(data, { ...json, 'if-match': etag }),
              body: JSON.stringify({ name: `Load ${Date.now().toString(36)}` }),
            };
          },
        },
      ];
    }
    case 'tag change': {
      const change = (kind: string, path: string): Req => ({
        kind,
        method: 'POST',
        setupRequest: (req, context) => {
          const ctx = context as Context;
          ctx.assetId ??= pick(data.assetIds);
          ctx.tagId ??= pick(data.tagIds);
          const body = { assetId: ctx.assetId, tagId: ctx.tagId };
          return { ...req, path, headers: headersFor(data, json), body: JSON.stringify(body) };
        },
      });
      return [change('tag: set', '/v1/tags/set-tag'), change('tag: remove', '/v1/tags/remove-tag')];
    }
    case 'upload':
      return [
        {
          kind: 'upload model',
          method: 'POST',
          setupRequest: (req) => ({
            ...req,
            path: '/v1/uploads/model',
            headers: headersFor(data, { 'x-file-name': 'load.glb' }),
            body: MODEL,
          }),
        },
      ];
  }
}

interface KindFigures {
  ms: number[];
  statuses: Map<number, number>;
}

/** What one phase of load measured, by kind of call. */
interface Phase {
  seconds: number;
  kinds: Map<string, KindFigures>;
  /** Requests that got no answer (timeouts, broken connections), by kind of work. */
  failures: Map<string, number>;
}

/** Runs the mix over `url` for `seconds` with `clients` connections in all. */
async function load(url: string, data: Data, clients: number, seconds: number): Promise<Phase> {
  const phase: Phase = { seconds, kinds: new Map(), failures: new Map() };
  const works = Object.entries(MIX) as [Work, number][];
  await Promise.all(
    works.map(async ([work, share]) => {
      const connections = Math.max(1, Math.round(clients * share));
      const requests = requestsOf(work, data);
      // The request just answered, named by onResponse before autocannon's 'response' event.
      let answered: { kind: string; status: number } | undefined;
      for (const request of requests) {
        const after = request.onResponse;
        request.onResponse = (status, body, context, headers) => {
          if (typeof after === 'function') after(status, body, context, headers);
          answered = { kind: request.kind, status };
        };
      }
      let instance: autocannon.Instance | undefined;
      const done = new Promise<autocannon.Result>((resolveRun, reject) => {
        const options = { url, connections, duration: seconds, timeout: 30, requests };
        instance = autocannon(options, (error, result) =>
          error ? reject(error as Error) : resolveRun(result),
        );
      });
      instance!.on('response', (_client, _status, _bytes, ms) => {
        if (!answered) return;
        const figures = phase.kinds.get(answered.kind) ?? {
          ms: [],
          statuses: new Map<number, number>(),
        };
        phase.kinds.set(answered.kind, figures);
        figures.ms.push(ms);
        figures.statuses.set(answered.status, (figures.statuses.get(answered.status) ?? 0) + 1);
        answered = undefined;
      });
      const result = await done;
      // Connection errors, timeouts included.
      phase.failures.set(work, result.errors);
    }),
  );
  return phase;
}

/**
 * Runs the mix over `url` for `seconds` with `clients` clients in all, each pausing between two
 * of its requests for a random time, uniform between 0.5 and 1.5 times `thinkMs` (and once
 * before its first, uniform up to `thinkMs`, so they do not start in step), as an admin reads
 * a page before the next click. The same requests as `load`'s, sent over keep-alive
 * connections, one per client.
 */
async function thinkLoad(
  url: string,
  data: Data,
  clients: number,
  seconds: number,
  thinkMs: number,
): Promise<Phase> {
  const phase: Phase = { seconds, kinds: new Map(), failures: new Map() };
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const target = new URL(url);
  const ends = performance.now() + seconds * 1000;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const send = (req: autocannon.Request) =>
    new Promise<{ status: number; headers: Record<string, string> }>((resolveSend, reject) => {
      const outgoing = httpRequest(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.path,
          headers: req.headers,
          timeout: 30_000,
        },
        (response) => {
          response.resume();
          response.once('end', () =>
            resolveSend({
              status: response.statusCode ?? 0,
              headers: response.headers as Record<string, string>,
            }),
          );
          response.once('error', reject);
        },
      );
      outgoing.once('timeout', () => outgoing.destroy(new Error('timed out')));
      outgoing.once('error', reject);
      outgoing.end(req.body);
    });
  const client = async (work: Work, requests: Req[]) => {
    await pause(Math.random() * thinkMs);
    while (performance.now() < ends) {
      // A new context each round, as autocannon gives its connections.
      const context: Context = {};
      for (const request of requests) {
        const base: autocannon.Request = { method: request.method };
        const setup = request.setupRequest as
          ((req: autocannon.Request, context: Context) => autocannon.Request | null) | undefined;
        const req = setup ? setup(base, context) : base;
        if (!req) break;
        const began = performance.now();
        try {
          const { status, headers } = await send(req);
          if (performance.now() > ends) return;
          const ms = performance.now() - began;
          if (typeof request.onResponse === 'function') {
            request.onResponse(status, '', context, headers);
          }
          const figures = phase.kinds.get(request.kind) ?? {
            ms: [],
            statuses: new Map<number, number>(),
          };
          phase.kinds.set(request.kind, figures);
          figures.ms.push(ms);
          figures.statuses.set(status, (figures.statuses.get(status) ?? 0) + 1);
        } catch {
          phase.failures.set(work, (phase.failures.get(work) ?? 0) + 1);
        }
        await pause(thinkMs * (0.5 + Math.random()));
        if (performance.now() > ends) return;
      }
    }
  };
  const running: Promise<void>[] = [];
  for (const [work, share] of Object.entries(MIX) as [Work, number][]) {
    const connections = Math.max(1, Math.round(clients * share));
    const requests = requestsOf(work, data);
    for (let i = 0; i < connections; i++) running.push(client(work, requests));
  }
  await Promise.all(running);
  agent.destroy();
  return phase;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

function printPhase(title: string, phase: Phase, streams: Streams, offered?: string) {
  console.log(`\n${title} (${phase.seconds} s)`);
  const rows = [...phase.kinds.entries()].map(([kind, { ms, statuses }]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    const errors = [...statuses.entries()].filter(([status]) => status >= 400);
    return {
      kind,
      calls: ms.length,
      'req/s': Number((ms.length / phase.seconds).toFixed(1)),
      'p50 ms': Math.round(percentile(sorted, 0.5)),
      'p95 ms': Math.round(percentile(sorted, 0.95)),
      'p99 ms': Math.round(percentile(sorted, 0.99)),
      'max ms': Math.round(sorted.at(-1) ?? NaN),
      errors: errors.reduce((sum, [, n]) => sum + n, 0),
      statuses: errors.map(([status, n]) => `${status}x${n}`).join(' '),
    };
  });
  rows.sort((a, b) => a.kind.localeCompare(b.kind));
  console.table(rows);
  const calls = rows.reduce((sum, row) => sum + row.calls, 0);
  const errors = rows.reduce((sum, row) => sum + row.errors, 0);
  const unanswered = [...phase.failures.values()].reduce((sum, n) => sum + n, 0);
  console.log(
    `Offered: ${((calls + unanswered) / phase.seconds).toFixed(1)} requests/s sent` +
      (offered ? ` (${offered})` : ''),
  );
  const worstRead = Math.max(...rows.filter((r) => READS.has(r.kind)).map((r) => r['p99 ms']));
  console.log(
    `Throughput: ${(calls / phase.seconds).toFixed(1)} answered requests/s; ` +
      `errors: ${errors} answered 4xx/5xx, ${unanswered} unanswered (timeouts, broken connections) ` +
      `(goal 0: ${errors + unanswered === 0 ? 'met' : 'NOT met'}); worst read p99 ${worstRead} ms ` +
      `(goal under ${READ_GOAL_MS} ms: ${worstRead < READ_GOAL_MS ? 'met' : 'NOT met'})`,
  );
  console.log(
    `Event streams: ${streams.open} open of ${streams.wanted}, ${streams.events} events received, ` +
      `${streams.refused} refused, ${streams.dropped} ended early`,
  );
}

interface Streams {
  wanted: number;
  open: number;
  events: number;
  refused: number;
  dropped: number;
  close(): void;
}

/** Holds `count` live event streams open through `url`, counting what they receive. */
function openStreams(url: string, data: Data, count: number): Streams {
  const stop = new AbortController();
  const streams: Streams = {
    wanted: count,
    open: 0,
    events: 0,
    refused: 0,
    dropped: 0,
    close: () => stop.abort(),
  };
  for (let i = 0; i < count; i++) {
    void (async () => {
      try {
        const response = await fetch(`${url}/v1/events`, {
          headers: headersFor(data, { accept: 'text/event-stream' }),
          signal: stop.signal,
        });
        if (response.status !== 200 || !response.body) {
          streams.refused += 1;
          return;
        }
        streams.open += 1;
        const decoder = new TextDecoder();
        for await (const chunk of response.body) {
          const text = decoder.decode(chunk, { stream: true });
          streams.events += text.match(/^id: /gm)?.length ?? 0;
        }
        streams.open -= 1;
        streams.dropped += 1;
      } catch {
        if (!stop.signal.aborted) streams.dropped += 1;
        else streams.open -= 1;
      }
    })();
  }
  return streams;
}

async function scrape(instance: string): Promise<string> {
  const response = await fetch(`${instance}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return response.text();
}

const sampleOf = (text: string, name: string) =>
  Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);

async function memory(instances: string[]): Promise<string> {
  const texts = await Promise.all(instances.map(scrape));
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  return texts
    .map(
      (text, i) =>
        `instance ${i + 1}: RSS ${mb(sampleOf(text, 'process_resident_memory_bytes'))}, ` +
        `heap used ${mb(sampleOf(text, 'nodejs_heap_size_used_bytes'))}`,
    )
    .join('; ');
}

/** Scrapes every instance every SCRAPE_MS until stopped; answers the samples. */
function scrapeEvery(instances: string[]) {
  const samples: { t: number; instance: string; text: string }[] = [];
  const keep = /^(http_request|process_|nodejs_eventloop_lag|nodejs_heap|event_stream_|db_)/;
  const take = async () => {
    const t = Date.now();
    const texts = await Promise.all(instances.map(scrape));
    texts.forEach((text, i) =>
      samples.push({
        t,
        instance: `instance-${i + 1}`,
        text: text
          .split('\n')
          .filter((line) => keep.test(line))
          .join('\n'),
      }),
    );
  };
  void take();
  const timer = setInterval(() => void take().catch(() => undefined), SCRAPE_MS);
  return () => {
    clearInterval(timer);
    return samples;
  };
}

/**
 * The soak's memory verdict, per instance, from the /metrics samples taken during it: each of
 * its first and last thirds is summed up by its lowest heap used and lowest RSS (the floor a
 * collection comes back to, not the sawtooth between collections). "growing" when either floor
 * of the last third is above the first third's by more than MEMORY_GROWTH: 10% and 16 MB for
 * the heap, 10% and 32 MB for RSS; else "flat". Fewer than 6 samples: "too short to tell".
 */
const MEMORY_GROWTH = { share: 0.1, heapBytes: 16 * 2 ** 20, rssBytes: 32 * 2 ** 20 };
/** A soak shorter than this gives thirds too short to hold a full collection each. */
const MEMORY_SOAK_MIN_S = 180;

function memoryVerdict(samples: { t: number; instance: string; text: string }[]): string[] {
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const instances = [...new Set(samples.map((sample) => sample.instance))].sort();
  return instances.map((instance) => {
    const points = samples
      .filter((sample) => sample.instance === instance)
      .map((sample) => ({
        heap: sampleOf(sample.text, 'nodejs_heap_size_used_bytes'),
        rss: sampleOf(sample.text, 'process_resident_memory_bytes'),
      }))
      .filter((point) => Number.isFinite(point.heap) && Number.isFinite(point.rss));
    if (points.length < 6) return `${instance}: too short to tell (${points.length} samples)`;
    const third = Math.floor(points.length / 3);
    const floor = (part: typeof points, key: 'heap' | 'rss') =>
      Math.min(...part.map((point) => point[key]));
    const first = points.slice(0, third);
    const last = points.slice(-third);
    const grew = (key: 'heap' | 'rss', bytes: number) => {
      const [from, to] = [floor(first, key), floor(last, key)];
      return { from, to, growing: to - from > Math.max(from * MEMORY_GROWTH.share, bytes) };
    };
    const heap = grew('heap', MEMORY_GROWTH.heapBytes);
    const rss = grew('rss', MEMORY_GROWTH.rssBytes);
    const verdict = heap.growing || rss.growing ? 'growing' : 'flat';
    return (
      `${instance}: ${verdict} (lowest heap used ${mb(heap.from)} -> ${mb(heap.to)}, ` +
      `lowest RSS ${mb(rss.from)} -> ${mb(rss.to)}, first third against last, ${points.length} samples)`
    );
  });
}

/** A copy of `template` on PostgreSQL server `serverUrl`; retried while others read it. */
async function copyDatabase(serverUrl: string, template: string) {
  const name = `avatar_studio_load_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (error) {
        // "source database is being accessed by other users": someone else is copying it.
        if (attempt > 40 || (error as { code?: string }).code !== '55006') throw error;
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * Clears the seed's `/demo/` file placeholders in the copy: a server's start would otherwise
 * store a file for them and point every row at it (server/demo-files.ts) before it answers, a
 * rewrite of the whole table. Answers the rows changed.
 */
async function clearDemoPlaceholders(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const demo = (column: string) =>
      `CASE WHEN ${column} LIKE '/demo/%' THEN NULL ELSE ${column} END`;
    const statements = [
      `UPDATE assets SET icon_url = ${demo('icon_url')}, model_url = ${demo('model_url')}
       WHERE icon_url LIKE '/demo/%' OR model_url LIKE '/demo/%'`,
      `UPDATE cage_meshes SET model_url = NULL WHERE model_url LIKE '/demo/%'`,
      `UPDATE morphed_assets SET model_url = NULL WHERE model_url LIKE '/demo/%'`,
    ];
    let changed = 0;
    for (const statement of statements) changed += (await client.query(statement)).rowCount ?? 0;
    // Rewriting every row clears the visibility map, so each list's index-only scans would read
    // the heap until autovacuum catches up: the database would not be the one a platform runs.
    if (changed > 0) await client.query('VACUUM ANALYZE assets, cage_meshes, morphed_assets');
    return changed;
  } finally {
    await client.end();
  }
}

/** The round-robin proxy of the tests (tests/helpers/proxy.ts), in a process of its own. */
async function startProxy(targets: string[]) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { startRoundRobinProxy } = await import('./tests/helpers/proxy.ts');
       const proxy = await startRoundRobinProxy(${JSON.stringify(targets)});
       console.log(proxy.url);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    createInterface({ input: child.stdout }).once('line', resolveUrl);
    child.once('exit', () => reject(new Error('the proxy did not start')));
  });
  return {
    url,
    pid: child.pid!,
    stop: () => {
      child.kill();
    },
  };
}

/**
 * The groups of processes whose CPU a run reports: each instance, the proxy, this process (the
 * clients), PostgreSQL (its backends for the bench's database, and the whole server), and Ceph.
 */
async function cpuGroups(databaseUrl: string, servers: { pid: number }[], proxyPid: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const postgres = uidOf('postgres');
  const groups: Group[] = [
    ...servers.map((server, i) => ({ name: `instance ${i + 1}`, members: tree(server.pid) })),
    { name: 'proxy', members: tree(proxyPid) },
    { name: 'clients (this process)', members: () => [process.pid], withReaped: false },
    {
      name: "PostgreSQL: this database's backends",
      members: async () =>
        (
          await client.query<{ pid: number }>(
            'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
          )
        ).rows.map((row) => row.pid),
      withReaped: false,
      inTotal: false,
    },
    ...(postgres === undefined
      ? []
      : [{ name: 'PostgreSQL: whole server', members: ofUser(postgres) }]),
    { name: 'Ceph', members: named('radosgw', 'ceph-osd', 'ceph-mon', 'ceph-mgr') },
  ];
  return { groups, close: () => client.end() };
}

async function json<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: T }).data;
}

async function prepare(url: string): Promise<Data> {
  const tokens: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const auth = await json<{ token: string }>(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    tokens.push(auth.token);
  }
  const authorization = { authorization: `Bearer ${tokens[0]!}` };
  const me = await json<{ id: string }>(`${url}/v1/users/me`, { headers: authorization });
  const assetIds: string[] = [];
  // Unlocked assets from several places in the order, so saves and tag changes are allowed.
  for (const [order, page] of [
    ['name', 1],
    ['name', 50],
    ['-createdAt', 1],
    ['-createdAt', 20],
    ['type', 30],
  ] as const) {
    const page100 = await json<{ id: string }[]>(
      `${url}/v1/assets?limit=100&locked=false&order=${order}&page=${page}`,
      { headers: authorization },
    );
    assetIds.push(...page100.map((a) => a.id));
  }
  const tags = await json<{ id: string }[]>(`${url}/v1/tags?limit=100&order=name`, {
    headers: authorization,
  });
  return { tokens, assetIds, tagIds: tags.map((t) => t.id), userId: me.id };
}

export async function benchServerLoad(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      clients: { type: 'string', default: '200' },
      seconds: { type: 'string', default: '60' },
      warmup: { type: 'string', default: '15' },
      soak: { type: 'string', default: '0' },
      think: { type: 'string', default: String(THINK_MS) },
      'pg-log-ms': { type: 'string' },
      sql: { type: 'string' },
      template: { type: 'string', default: 'scale_1m' },
      'metrics-out': { type: 'string', default: join(tmpdir(), 'avatar-studio-load-metrics.json') },
    },
  });
  const clients = Number(values.clients);
  const seconds = Number(values.seconds);
  const warmup = Number(values.warmup);
  const soak = Number(values.soak);
  const think = Number(values.think);
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl) {
    throw new Error(
      'bench load: set TEST_DATABASE_URL (or DATABASE_URL) to the PostgreSQL server holding --template',
    );
  }
  console.log(
    `${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} before the start; clients, proxy, both instances, PostgreSQL and Ceph share them`,
  );
  const stops: (() => Promise<void> | void)[] = [];
  try {
    let began = performance.now();
    const database = await copyDatabase(serverUrl, values.template);
    stops.push(() => database.drop());
    const copied = (performance.now() - began) / 1000;
    began = performance.now();
    const cleared = await clearDemoPlaceholders(database.url);
    console.log(
      `Copied ${values.template} in ${copied.toFixed(0)} s; cleared the demo file placeholders ` +
        `of ${cleared} rows in ${((performance.now() - began) / 1000).toFixed(0)} s`,
    );
    if (values.sql !== undefined) {
      // A change to try on the copy before the instances start (an index, a setting).
      began = performance.now();
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query(readFileSync(values.sql, 'utf8'));
      await client.end();
      console.log(
        `Ran ${values.sql} on the copy in ${((performance.now() - began) / 1000).toFixed(0)} s`,
      );
    }
    if (values['pg-log-ms'] !== undefined) {
      // The copy's statements that take longer go to PostgreSQL's log, with their durations.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query(
        `ALTER DATABASE ${new URL(database.url).pathname.slice(1)} ` +
          `SET log_min_duration_statement = ${Number(values['pg-log-ms'])}`,
      );
      await client.end();
    }
    const instances = await startInstances(2, {
      DATABASE_URL: database.url,
      METRICS_TOKEN,
      // A log line per request would be most of the work the instances do here.
      LOG_LEVEL: 'warn',
      // Longer than any run: the clients keep their sessions as a browser refreshing would.
      ACCESS_TOKEN_TTL: '7200',
    });
    stops.push(() => instances.stop());
    const urls = instances.servers.map((server) => server.url);
    const proxy = await startProxy(urls);
    stops.push(() => proxy.stop());
    const data = await prepare(proxy.url).catch((error: unknown) => {
      // What the servers said is where the cause is (LOG_LEVEL=warn keeps only that).
      for (const server of instances.servers) console.log(server.output().slice(-3000));
      throw error;
    });
    const streamCount = Math.min(MAX_STREAMS, Math.round(clients * 0.08));
    console.log(
      `${clients} clients (${streamCount} of them event streams) over ${data.assetIds.length} ` +
        `assets, ${data.tagIds.length} tags, ${SESSIONS} sessions of the admin`,
    );
    const atStart = await memory(urls);
    const stopScraping = scrapeEvery(urls);
    const streams = openStreams(proxy.url, data, streamCount);
    stops.push(() => streams.close());
    const callers = clients - streamCount;
    const run = (phaseSeconds: number) =>
      think > 0
        ? thinkLoad(proxy.url, data, callers, phaseSeconds, think)
        : load(proxy.url, data, callers, phaseSeconds);
    const offered =
      think > 0
        ? `${callers} clients pausing ${think / 2}-${(think * 3) / 2} ms between actions: ` +
          `at most ${((callers * 1000) / think).toFixed(0)}/s were every answer instant`
        : `closed loop: ${callers} clients, each sends its next request when answered`;
    console.log(`Clients: ${offered}`);
    began = performance.now();
    printPhase('Warm-up', await run(warmup), streams, offered);
    const afterWarmup = await memory(urls);
    const cpu = await cpuGroups(database.url, instances.servers, proxy.pid);
    const before = await snapshot(cpu.groups);
    const measured = await run(seconds);
    const after = await snapshot(cpu.groups);
    await cpu.close();
    printPhase('Load', measured, streams, offered);
    const answered = [...measured.kinds.values()].reduce((sum, k) => sum + k.ms.length, 0);
    console.log(
      `\nCPU over the ${seconds} s load (user + system, from /proc; ms per answered request; ` +
        `PostgreSQL's whole server includes other work on it, its backends for this database ` +
        `do not):`,
    );
    console.table(cpuRows(before, after, answered));
    console.log(
      `Load average at the end: ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );
    const atEnd = await memory(urls);
    console.log(`\nMemory at start: ${atStart}`);
    console.log(`After the warm-up: ${afterWarmup}`);
    console.log(`At the end: ${atEnd}`);
    let soakFrom = 0;
    if (soak > 0) {
      console.log(`\nSoak: ${soak} s more of the same load, memory each minute`);
      soakFrom = Date.now();
      for (let done = 0; done < soak; done += 60) {
        const phase = await run(Math.min(60, soak - done));
        const calls = [...phase.kinds.values()].reduce((sum, k) => sum + k.ms.length, 0);
        const errors = [...phase.kinds.values()]
          .flatMap((k) => [...k.statuses.entries()])
          .filter(([status]) => status >= 400)
          .reduce((sum, [, n]) => sum + n, 0);
        console.log(
          `${done + phase.seconds} s: ${(calls / phase.seconds).toFixed(0)} req/s, ${errors} errors; ${await memory(urls)}`,
        );
      }
    }
    const samples = stopScraping();
    if (soak > 0) {
      console.log(
        `Memory over the soak (samples every ${SCRAPE_MS / 1000} s; "growing" when the lowest ` +
          `heap used or RSS of its last third is above its first third's by over 10% and ` +
          `16 MB (heap) or 32 MB (RSS)):`,
      );
      for (const line of memoryVerdict(samples.filter((sample) => sample.t >= soakFrom))) {
        console.log(`  ${line}`);
      }
      if (soak < MEMORY_SOAK_MIN_S) {
        console.log(
          `  (a soak under ${MEMORY_SOAK_MIN_S} s may end between two full collections, ` +
            `which reads as growing: judge by a longer one, e.g. --soak 600)`,
        );
      }
    }
    writeFileSync(
      values['metrics-out'],
      JSON.stringify({ started: Date.now() - (performance.now() - began), samples }),
    );
    console.log(`\n/metrics every ${SCRAPE_MS / 1000} s: ${values['metrics-out']}`);
  } finally {
    while (stops.length > 0) await Promise.resolve(stops.pop()!()).catch(() => undefined);
  }
}
