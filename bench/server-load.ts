/**
 * `npm run bench -- load [--clients 200] [--seconds 60] [--warmup 15] [--soak 0] [--think 2000]
 * [--template scale_1m] [--metrics-out <file>] [--sql <file>] [--pg-log-ms <ms>]`: two instances of the real server on one
 * PostgreSQL database (a copy of `--template`, a database seeded by `npm run seed:scale`, on
 * the server of TEST_DATABASE_URL or DATABASE_URL; dropped at the end) and one S3 bucket (Ceph,
 * as tests/helpers/instances.ts starts them), behind the round-robin proxy (in a process of its
 * own), under `--clients` concurrent signed-in clients doing what admins do: asset lists with
 * filters and sorts, other lists, searches, opening assets, saves with If-Match, tag changes,
 * uploads of a fixture model, and open event streams. The seed's `/demo/` file placeholders are
 * cleared in the copy first (load/cluster.ts: a start would otherwise spend an UPDATE per
 * row on them, far past the wait for its health check).
 *
 * Each client pauses between two actions (`--think`, load/clients.ts); `--think 0` runs the closed
 * loop with no pause, from autocannon, one instance per kind of call (its connections are that
 * kind's clients), so each kind has its own latencies. Both print the offered rate. For the
 * measured phase it prints the CPU time of each process group (cpu-split.ts) and per answered
 * request. `--sql` runs a file on the copy first (to try an index); `--pg-log-ms` has
 * PostgreSQL log the copy's statements slower than that, with their durations. Prints per kind p50/p95/p99, throughput and
 * errors by status; each instance's resident memory and heap (from its /metrics) at the start,
 * after the warm-up and at the end, and every minute of a `--soak` of that many seconds after
 * the run, with a verdict on it, "flat" or "growing" (load/metrics.ts states the rule). Every 5 s
 * both instances' /metrics are scraped into `--metrics-out` (JSON), what
 * scripts/render-dashboard.ts draws the Grafana dashboard's panels from. Measurements, never
 * pass/fail; the machine's cores are printed with them. What the clients send: load/actions.ts.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchOptions } from './args';
import { cpuRows, snapshot } from './cpu-split';
import { prepare, SESSIONS } from './load/actions';
import { load, MAX_STREAMS, openStreams, thinkLoad } from './load/clients';
import { cpuGroups, startCluster } from './load/cluster';
import { memory, printSoakVerdict, SCRAPE_MS, scrapeEvery } from './load/metrics';
import { printPhase } from './load/report';

/**
 * The default pause between two actions of one client, ms: an admin reads a list or a form
 * before the next click. `--think 0` is the closed loop with no pause, the capacity figure.
 */
const THINK_MS = 2000;

export async function benchServerLoad(args: string[]): Promise<void> {
  const values = benchOptions(args, {
    clients: '200',
    seconds: '60',
    warmup: '15',
    soak: '0',
    think: String(THINK_MS),
    'pg-log-ms': undefined,
    sql: undefined,
    template: 'scale_1m',
    'metrics-out': join(tmpdir(), 'avatar-studio-load-metrics.json'),
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
    const { databaseUrl, servers, proxy } = await startCluster(
      serverUrl,
      { template: values.template, sql: values.sql, pgLogMs: values['pg-log-ms'] },
      stops,
    );
    const urls = servers.map((server) => server.url);
    const data = await prepare(proxy.url).catch((error: unknown) => {
      // What the servers said is where the cause is (LOG_LEVEL=warn keeps only that).
      for (const server of servers) console.log(server.output().slice(-3000));
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
    const began = performance.now();
    printPhase('Warm-up', await run(warmup), streams, offered);
    const afterWarmup = await memory(urls);
    const cpu = await cpuGroups(databaseUrl, servers, proxy.pid);
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
    if (soak > 0) printSoakVerdict(samples, soakFrom, soak);
    writeFileSync(
      values['metrics-out'],
      JSON.stringify({ started: Date.now() - (performance.now() - began), samples }),
    );
    console.log(`\n/metrics every ${SCRAPE_MS / 1000} s: ${values['metrics-out']}`);
  } finally {
    while (stops.length > 0) await Promise.resolve(stops.pop()!()).catch(() => undefined);
  }
}
