/**
 * The one database seam of the server: a tiny interface with an embedded PGlite implementation
 * (default) and a PostgreSQL pool implementation (DATABASE_URL). Both speak the same SQL dialect.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

export type SqlParam = string | number | boolean | Date | null | readonly string[];

export interface Db {
  /** Runs one statement with `$1`-style parameters. */
  query<T>(sql: string, params?: readonly SqlParam[]): Promise<{ rows: T[] }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in a transaction; nested calls join the outer transaction. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Error codes PostgreSQL uses that the server reacts to. */
export const PG_UNIQUE_VIOLATION = '23505';

/** True when `error` is a database error with the given SQLSTATE code. */
export function isDbError(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/**
 * PGlite is a single-process database: a second server on the same folder would corrupt it.
 * A lock file holding the owner's pid keeps it out; a lock left by a dead process is taken over.
 */
function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8'));
      if (isAlive(owner)) {
        throw new Error(`Another server (pid ${owner}) is using the database in ${dir}`, {
          cause: error,
        });
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Opens the embedded database persisted in `dir`, or an in-memory one when `dir` is undefined. */
export async function createPgliteDb(dir?: string): Promise<Db> {
  const unlock = dir === undefined ? () => undefined : lockDataDir(dir);
  // pg_trgm backs the trigram indexes of the list `search` filters (migration 002).
  const extensions = { pg_trgm };
  const pglite = dir === undefined ? new PGlite({ extensions }) : new PGlite(dir, { extensions });
  try {
    await pglite.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const inTx = (tx: Transaction): Db => ({
    query: (sql, params) => tx.query(sql, params as unknown[]),
    exec: async (sql) => {
      await tx.exec(sql);
    },
    transaction: (fn) => fn(inTx(tx)),
    close: () => Promise.reject(new Error('close() inside a transaction')),
  });
  return {
    query: (sql, params) => pglite.query(sql, params as unknown[]),
    exec: async (sql) => {
      await pglite.exec(sql);
    },
    // PGlite is a single connection: a transaction holds it exclusively until it ends, so
    // concurrent requests queue behind it (the same effect as row locks on PostgreSQL).
    transaction: (fn) => pglite.transaction((tx) => fn(inTx(tx))),
    close: async () => {
      await pglite.close();
      unlock();
    },
  };
}

async function pgQuery<T>(
  client: pg.Pool | pg.PoolClient,
  sql: string,
  params?: readonly SqlParam[],
): Promise<{ rows: T[] }> {
  const result = await client.query(sql, params as unknown[]);
  return { rows: result.rows as T[] };
}

/** Opens a connection pool to a PostgreSQL server. */
export function createPgDb(connectionString: string): Db {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
  const onClient = (client: pg.PoolClient): Db => ({
    query: (sql, params) => pgQuery(client, sql, params),
    exec: async (sql) => {
      await client.query(sql);
    },
    transaction: (fn) => fn(onClient(client)),
    close: () => Promise.reject(new Error('close() inside a transaction')),
  });
  return {
    query: (sql, params) => pgQuery(pool, sql, params),
    exec: async (sql) => {
      await pool.query(sql);
    },
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(onClient(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
