/**
 * What the load bench runs on: a copy of the seeded database made ready for a start, the
 * round-robin proxy before the instances, and the groups of processes whose CPU it reports.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { startInstances } from '../../tests/helpers/instances';
import { named, ofUser, tree, uidOf, type Group } from '../cpu-split';
import { createDatabase } from '../pg-database';
import { METRICS_TOKEN } from './metrics';

/** What the cluster runs on beyond the copy of `template`. */
interface ClusterOptions {
  template: string;
  /** A file of SQL to run on the copy first (an index, a setting to try). */
  sql?: string;
  /** PostgreSQL logs the copy's statements slower than this, with their durations. */
  pgLogMs?: string;
}

/**
 * Starts what a run measures, each part's stop pushed on `stops` as soon as it runs: a copy of
 * `template` on the PostgreSQL server of `serverUrl`, its demo placeholders cleared, two
 * instances on it and one S3 bucket, and the round-robin proxy before them.
 */
export async function startCluster(
  serverUrl: string,
  { template, sql, pgLogMs }: ClusterOptions,
  stops: (() => Promise<void> | void)[],
) {
  let began = performance.now();
  const database = await createDatabase(serverUrl, `avatar_studio_load_${process.pid}`, template);
  stops.push(() => database.drop());
  const copied = (performance.now() - began) / 1000;
  began = performance.now();
  const cleared = await clearDemoPlaceholders(database.url);
  console.log(
    `Copied ${template} in ${copied.toFixed(0)} s; cleared the demo file placeholders ` +
      `of ${cleared} rows in ${((performance.now() - began) / 1000).toFixed(0)} s`,
  );
  if (sql !== undefined) {
    // A change to try on the copy before the instances start (an index, a setting).
    began = performance.now();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(readFileSync(sql, 'utf8'));
    await client.end();
    console.log(`Ran ${sql} on the copy in ${((performance.now() - began) / 1000).toFixed(0)} s`);
  }
  if (pgLogMs !== undefined) {
    // The copy's statements that take longer go to PostgreSQL's log, with their durations.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(
      `ALTER DATABASE ${new URL(database.url).pathname.slice(1)} ` +
        `SET log_min_duration_statement = ${Number(pgLogMs)}`,
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
  const proxy = await startProxy(instances.servers.map((server) => server.url));
  stops.push(() => proxy.stop());
  return { databaseUrl: database.url, servers: instances.servers, proxy };
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
export async function cpuGroups(databaseUrl: string, servers: { pid: number }[], proxyPid: number) {
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
