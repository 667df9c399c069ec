/**
 * `npm run drill -- backup`: takes a backup of a running installation as docs/operating.md
 * "Backups" says (the database dump first, then the files), restores it into a fresh database
 * and a fresh files folder or bucket, starts a server on the restore, and checks that every
 * table has as many rows as the dump's snapshot had and that every file the restored database
 * refers to is there with the SHA-256 it had when it was copied. Prints what it saw; exits 1
 * when something does not match.
 *
 * The installation is the one the usual settings name (server/config.ts): `DATABASE_URL` (a
 * PostgreSQL database; without it the PGlite database in DATA_DIR/pg, whose server must be
 * stopped), and DATA_DIR/files or the bucket of the `S3_*` settings. The restore goes to a new
 * database on the same PostgreSQL server (or a new folder) and a new bucket on the same S3
 * server, removed afterwards unless `--keep`. `--out <folder>` keeps the backup there (by
 * default a temporary folder, removed afterwards).
 *
 * The backup is plain: `db.dump` (pg_dump's custom format) or `pg/` (PGlite's folder),
 * `files/` (every stored file under its key), `files.sha256` (`sha256sum -c` reads it) and
 * `jwt-secret` when the secret is DATA_DIR's.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { loadConfig, type Config } from '../server/config';
import { createPgDb, createPgliteDb, type Db } from '../server/db';
import { fileColumns } from '../server/file-sweeper';
import { openStorage } from '../server/open-storage';
import { keyOfFileUrl, type Storage } from '../server/storage';
import { freePort, SERVER_ARGS } from '../tests/helpers/server';

export interface DrillReport {
  /** Rows per table in the dump's snapshot and in the restored database. */
  tables: { table: string; backedUp: number; restored: number }[];
  /** Files copied, with their checksums. */
  files: number;
  /** Keys the restored database refers to. */
  referenced: number;
  /** Referenced keys the installation itself did not have (not a fault of the restore). */
  missingAtSource: string[];
  /** Referenced keys absent from the restore, or with another checksum. */
  badFiles: string[];
  /** The restored server's GET /readyz status, and files read back through it. */
  ready: number;
  servedChecked: number;
  ok: boolean;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function sha256Of(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest('hex');
}

/** Rows of every table of the current schema, by name. */
async function countRows(query: Db['query']): Promise<Map<string, number>> {
  const { rows } = await query<{ table: string }>(
    `SELECT table_name AS "table" FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const counts = new Map<string, number>();
  for (const { table } of rows) {
    const counted = await query<{ n: string }>(`SELECT count(*) AS n FROM ${quoted(table)}`);
    counts.set(table, Number(counted.rows[0]!.n));
  }
  return counts;
}

/** Every stored-file key the database refers to: `*_url` columns and the stored-file records. */
async function referencedKeys(db: Db): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const { table, column } of await fileColumns(db)) {
    const { rows } = await db.query<{ url: string }>(
      `SELECT DISTINCT ${quoted(column)} AS url FROM ${quoted(table)}
       WHERE ${quoted(column)} LIKE '/files/%'`,
    );
    for (const { url } of rows) {
      const key = keyOfFileUrl(url);
      if (key) keys.add(key);
    }
  }
  const { rows } = await db.query<{ key: string }>('SELECT key FROM stored_files');
  for (const { key } of rows) keys.add(key);
  return keys;
}

/** A pg client on `url` as a Db's query (for counting). */
function pgQuery(client: pg.Client): Db['query'] {
  return (async (sql: string, params?: unknown[]) => client.query(sql, params)) as Db['query'];
}

/** A database URL naming `database` on the server of `url`. */
function onDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
}

function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * Backs up the database: a PostgreSQL dump of one snapshot, whose row counts are taken in the
 * same snapshot; or PGlite's folder, copied while no server holds it.
 */
async function backUpDatabase(config: Config, out: string): Promise<Map<string, number>> {
  if (!config.databaseUrl) {
    // Refuses (another server holds it) unless the server is stopped.
    const db = await createPgliteDb(join(config.dataDir, 'pg'));
    try {
      const counts = await countRows((sql, params) => db.query(sql, params));
      await cp(join(config.dataDir, 'pg'), join(out, 'pg'), { recursive: true });
      return counts;
    } finally {
      await db.close();
    }
  }
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
    const counts = await countRows(pgQuery(client));
    run('pg_dump', [
      '--format=custom',
      `--snapshot=${rows[0]!.id}`,
      `--file=${join(out, 'db.dump')}`,
      config.databaseUrl,
    ]);
    await client.query('COMMIT');
    return counts;
  } finally {
    await client.end();
  }
}

/** Copies every stored file into `out/files` and writes `out/files.sha256`. */
async function backUpFiles(storage: Storage, out: string): Promise<Map<string, string>> {
  const dir = join(out, 'files');
  await mkdir(dir, { recursive: true });
  const sums = new Map<string, string>();
  for await (const file of storage.list()) {
    const found = await storage.get(file.key);
    if (!found) continue; // Swept since it was listed.
    const hash = createHash('sha256');
    await pipeline(
      Readable.fromWeb(found.stream as import('node:stream/web').ReadableStream<Uint8Array>),
      async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(join(dir, file.key)),
    );
    sums.set(file.key, hash.digest('hex'));
  }
  const lines = [...sums].map(([key, sum]) => `${sum}  files/${key}\n`).join('');
  await writeFile(join(out, 'files.sha256'), lines);
  return sums;
}

/** Starts the real server with `env`; resolves with its address and how to stop it. */
async function startServer(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, SERVER_ARGS, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The restored server stopped:\n${output}`);
    const answer = await fetch(`${url}/healthz`).catch(() => undefined);
    if (answer?.ok) break;
    if (Date.now() > deadline) throw new Error(`The restored server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { url, stop };
}

/** Runs the drill against the installation `env` names; see the file's comment. */
export async function backupDrill(
  env: NodeJS.ProcessEnv,
  options: { out?: string; keep?: boolean; say?: (line: string) => void } = {},
): Promise<DrillReport> {
  const say = options.say ?? ((line: string) => console.log(line));
  const config = loadConfig(env);
  const out = options.out ?? (await mkdtemp(join(tmpdir(), 'avatar-studio-backup-')));
  await mkdir(out, { recursive: true });
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    // 1. The backup: the database first, then the files, so every file it refers to is copied.
    say(`Backing up into ${out}`);
    const backedUp = await backUpDatabase(config, out);
    const source = await openStorage(config);
    const sums = await backUpFiles(source, out);
    // Without it every session ends on restore (unless JWT_SECRET is kept elsewhere).
    if (config.jwtSecretSource === 'file') {
      await cp(join(config.dataDir, 'jwt-secret'), join(out, 'jwt-secret'));
    }
    say(`  database: ${backedUp.size} tables, ${sum(backedUp.values())} rows`);
    say(`  files: ${sums.size} (${config.s3 ? `bucket ${config.s3.bucket}` : 'DATA_DIR/files'})`);

    // 2. The restore, into places nothing else uses.
    const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
    const restoreDir = await mkdtemp(join(tmpdir(), 'avatar-studio-restore-'));
    if (!options.keep) cleanups.push(() => rm(restoreDir, { recursive: true, force: true }));
    const restoredEnv: Record<string, string> = {
      DATA_DIR: restoreDir,
      JWT_SECRET: config.jwtSecret,
      NODE_ENV: env.NODE_ENV ?? 'development',
      LOG_FORMAT: 'json',
      ...(env.PUBLIC_URL ? { PUBLIC_URL: env.PUBLIC_URL } : {}),
      ...(env.SMTP_URL ? { SMTP_URL: env.SMTP_URL } : {}),
      ...(env.ADMIN_PASSWORD ? { ADMIN_PASSWORD: env.ADMIN_PASSWORD } : {}),
      STATIC_DIR: join(restoreDir, 'no-static'),
      // Nothing of the restore may change before it is checked.
      MORPH_WORKER: 'off',
    };
    let restored: Db;
    if (config.databaseUrl) {
      const database = `restore_${stamp}`;
      const admin = new pg.Client({ connectionString: config.databaseUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      const url = onDatabase(config.databaseUrl, database);
      if (!options.keep) {
        cleanups.push(async () => {
          const client = new pg.Client({ connectionString: config.databaseUrl });
          await client.connect();
          await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
          await client.end();
        });
      }
      run('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${url}`, join(out, 'db.dump')]);
      restoredEnv.DATABASE_URL = url;
      say(`Restored the database into ${database}`);
      restored = createPgDb(url);
    } else {
      await cp(join(out, 'pg'), join(restoreDir, 'pg'), { recursive: true });
      say(`Restored the database into ${join(restoreDir, 'pg')}`);
      restored = await createPgliteDb(join(restoreDir, 'pg'));
    }
    let restoredStorage: Storage;
    if (config.s3) {
      const bucket = `${config.s3.bucket}-restore-${stamp}`.slice(0, 63);
      const { createS3Client, createS3Storage } = await import('../server/s3-storage');
      const { CreateBucketCommand } = await import('@aws-sdk/client-s3');
      const { copyFilesToS3 } = await import('./files-to-s3');
      const client = createS3Client({ ...config.s3, bucket });
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      if (!options.keep) cleanups.push(() => removeBucket(client, bucket));
      const copied = await copyFilesToS3(join(out, 'files'), client, bucket);
      if (copied.failed.length > 0) throw new Error(`Not restored: ${copied.failed.join(', ')}`);
      Object.assign(restoredEnv, {
        S3_BUCKET: bucket,
        S3_ENDPOINT: env.S3_ENDPOINT ?? '',
        S3_REGION: config.s3.region,
        S3_FORCE_PATH_STYLE: String(config.s3.forcePathStyle),
        ...(env.S3_ACCESS_KEY_ID ? { S3_ACCESS_KEY_ID: env.S3_ACCESS_KEY_ID } : {}),
        ...(env.S3_SECRET_ACCESS_KEY ? { S3_SECRET_ACCESS_KEY: env.S3_SECRET_ACCESS_KEY } : {}),
      });
      restoredStorage = createS3Storage(client, bucket);
      say(`Restored ${copied.copied} files into the bucket ${bucket}`);
    } else {
      await cp(join(out, 'files'), join(restoreDir, 'files'), { recursive: true });
      const { createLocalStorage } = await import('../server/storage');
      restoredStorage = createLocalStorage(join(restoreDir, 'files'));
      say(`Restored ${sums.size} files into ${join(restoreDir, 'files')}`);
    }

    // 3. The checks, before a server touches the restore: rows per table, and every file the
    // restored database refers to, by checksum.
    const restoredCounts = await countRows((sql, params) => restored.query(sql, params));
    const keys = await referencedKeys(restored);
    await restored.close();
    const tables = [...new Set([...backedUp.keys(), ...restoredCounts.keys()])]
      .sort()
      .map((table) => ({
        table,
        backedUp: backedUp.get(table) ?? -1,
        restored: restoredCounts.get(table) ?? -1,
      }));
    const missingAtSource: string[] = [];
    const badFiles: string[] = [];
    for (const key of keys) {
      const expected = sums.get(key);
      if (expected === undefined) {
        missingAtSource.push(key);
        continue;
      }
      const found = await restoredStorage.get(key);
      const actual = found && (await sha256Of(found.stream as AsyncIterable<Uint8Array>));
      if (actual !== expected) badFiles.push(key);
    }

    // 4. A server on the restore: ready, and the files read back through it.
    const server = await startServer(restoredEnv);
    cleanups.unshift(server.stop);
    const ready = (await fetch(`${server.url}/readyz`)).status;
    let servedChecked = 0;
    for (const key of keys) {
      const expected = sums.get(key);
      if (expected === undefined) continue;
      const answer = await fetch(`${server.url}/files/${key}`);
      const actual = answer.ok
        ? createHash('sha256')
            .update(new Uint8Array(await answer.arrayBuffer()))
            .digest('hex')
        : `status ${answer.status}`;
      if (actual !== expected && !badFiles.includes(key)) badFiles.push(key);
      servedChecked += 1;
    }

    const mismatched = tables.filter((row) => row.backedUp !== row.restored);
    const ok = mismatched.length === 0 && badFiles.length === 0 && ready === 200;
    say('');
    say('table                                  backed up   restored');
    for (const row of tables) {
      const flag = row.backedUp === row.restored ? '' : '   MISMATCH';
      say(
        `${row.table.padEnd(38)} ${String(row.backedUp).padStart(9)} ${String(row.restored).padStart(10)}${flag}`,
      );
    }
    say('');
    say(`Files referenced by the restored database: ${keys.size}`);
    say(
      `  restored with the same SHA-256: ${keys.size - missingAtSource.length - badFiles.length}`,
    );
    say(`  missing or different in the restore: ${badFiles.length} ${badFiles.join(' ')}`);
    say(
      `  not in the installation either (referenced by rows, never stored): ${missingAtSource.length}`,
    );
    say(`Restored server: GET /readyz ${ready}; ${servedChecked} files read back through it`);
    say(ok ? 'Restore drill: OK' : 'Restore drill: FAILED');
    return {
      tables,
      files: sums.size,
      referenced: keys.size,
      missingAtSource,
      badFiles,
      ready,
      servedChecked,
      ok,
    };
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((error: unknown) => say(String(error)));
    if (!options.out && !options.keep) await rm(out, { recursive: true, force: true });
  }
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

async function removeBucket(client: import('@aws-sdk/client-s3').S3Client, bucket: string) {
  const { DeleteBucketCommand, DeleteObjectCommand, ListObjectsV2Command } =
    await import('@aws-sdk/client-s3');
  for (;;) {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    if (!page.Contents?.length) break;
    for (const object of page.Contents) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
    }
  }
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
}

/** `npm run drill -- backup [--out <folder>] [--keep]` (scripts/drill.ts). */
export async function backupDrillCommand(args: string[]): Promise<number> {
  const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
  try {
    const report = await backupDrill(process.env, { out, keep: args.includes('--keep') });
    return report.ok ? 0 : 1;
  } catch (error) {
    // PGlite's folder is locked by its running server: the README says to stop it first.
    console.error(
      `Restore drill: FAILED: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}
