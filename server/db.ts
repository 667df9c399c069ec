/**
 * The one database seam of the server: a tiny interface with an embedded PGlite implementation
 * (default) and a PostgreSQL pool implementation (DATABASE_URL). Both speak the same SQL dialect.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { log } from './log';
import {
  dbPoolRefusals,
  dbQueryDuration,
  secondsSince,
  statementLabel,
  watchPool,
} from './metrics';

export type SqlParam = string | number | boolean | Date | null | readonly (string | null)[];

export interface Db {
  /** Runs one statement with `$1`-style parameters. */
  query<T>(sql: string, params?: readonly SqlParam[]): Promise<{ rows: T[] }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in a transaction; nested calls join the outer transaction. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` with the payload of each NOTIFY on `channel` (sent when the notifying
   * transaction commits, by any process on this database), and with `undefined` when a lost
   * listening connection is back (notifications may have been missed meanwhile). `onLost` is
   * called as soon as that connection is lost (until then nothing is missed). Resolves, once
   * listening, to a function that stops.
   */
  listen(
    channel: string,
    onNotify: (payload: string | undefined) => void,
    onLost?: () => void,
  ): Promise<Unlisten>;
  close(): Promise<void>;
}

export type Unlisten = () => Promise<void>;

/** Channel names reach SQL as identifiers (LISTEN takes no parameters), so only plain ones. */
function channelIdentifier(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Bad channel name ${channel}`);
  return channel;
}

/** Runs `work` (the statement `sql`), counting its time in db_query_duration_seconds. */
async function timed<T>(sql: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    dbQueryDuration.observe({ statement: statementLabel(sql) }, secondsSince(started));
  }
}

/** Error codes PostgreSQL uses that the server reacts to. */
export const PG_UNIQUE_VIOLATION = '23505';

/**
 * What a Db throws when the database cannot be reached: no connection could be had (refused,
 * timed out, not accepting connections) or the one in use was lost. The server answers it with
 * a 503 the client may retry (server/http/errors.ts); `cause` is the driver's error.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * What a Db throws when every pooled connection stayed in use for the whole connect timeout while
 * the database itself answers: the server is busy, not the database down. A kind of
 * DatabaseUnavailableError (the work was not done and may be retried); the server answers it
 * with its own 503 (server/http/errors.ts).
 */
class DatabaseBusyError extends DatabaseUnavailableError {
  constructor(cause: unknown) {
    super(cause);
    this.message = 'Every database connection is in use';
    this.name = 'DatabaseBusyError';
  }
}

/** True when `error` (or an error it was caused by) is a DatabaseBusyError. */
export function isDatabaseBusy(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof DatabaseBusyError) return true;
    current = current.cause;
  }
  return false;
}

/** True when `error` (or an error it was caused by) says the database cannot be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof DatabaseUnavailableError) return true;
    current = current.cause;
  }
  return false;
}

/**
 * Errors of a query whose connection is gone: PostgreSQL stopping or restarting (57P01-57P03),
 * connection exceptions (class 08), the socket failing, or pg's own words for a closed one.
 */
const LOST_CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);
const LOST_CONNECTION_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed)/;

function isLostConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (LOST_CONNECTION_CODES.has(code) || code.startsWith('08'))) {
    return true;
  }
  return LOST_CONNECTION_MESSAGE.test(error.message);
}

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

const roots = new WeakMap<Db, Db>();

/** The database `db` is a transaction of (`db` itself outside transactions). */
export function rootOf(db: Db): Db {
  return roots.get(db) ?? db;
}

/** Records `tx` as a transaction of `root`, for rootOf. */
function inTransactionOf(root: () => Db, tx: Db): Db {
  roots.set(tx, root());
  return tx;
}

const actors = new AsyncLocalStorage<string>();

/**
 * Runs `fn` on behalf of user `actorId`: every transaction it opens names that user as the
 * author of the changes it makes (`app.actor_id`, which migration 012's version triggers write
 * to record_changes). requireAuth runs each signed-in request this way.
 */
export function asActor<T>(actorId: string, fn: () => T): T {
  return actors.run(actorId, fn);
}

/** Names the current actor (asActor), if any, in the transaction `tx` has just begun. */
async function nameActor(tx: Pick<Db, 'query'>) {
  const actor = actors.getStore();
  if (actor !== undefined) await tx.query("SELECT set_config('app.actor_id', $1, true)", [actor]);
}

/** A transaction's connection may neither listen nor close: those belong to the database. */
const notInTransaction: Pick<Db, 'listen' | 'close'> = {
  listen: () => Promise.reject(new Error('listen() inside a transaction')),
  close: () => Promise.reject(new Error('close() inside a transaction')),
};

/**
 * Opens the embedded database persisted in `dir`, or an in-memory one when `dir` is undefined:
 * empty, or a copy of `template` (a data folder tarball from pgliteTemplate), which skips
 * PGlite's initdb (about half of its start).
 */
export async function createPgliteDb(dir?: string, template?: Blob): Promise<Db> {
  const unlock = dir === undefined ? () => undefined : lockDataDir(dir);
  // pg_trgm backs the trigram indexes of the list `search` filters (migration 002).
  const options = { extensions: { pg_trgm }, loadDataDir: template };
  const pglite = dir === undefined ? new PGlite(options) : new PGlite(dir, options);
  try {
    await pglite.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  return pgliteDb(pglite, unlock);
}

/**
 * An in-memory database prepared by `prepare` (e.g. migrated), as a template for createPgliteDb.
 * @internal The test set-up's (server/test-global-setup.ts).
 */
export async function pgliteTemplate(prepare: (db: Db) => Promise<unknown>): Promise<Blob> {
  const pglite = new PGlite({ extensions: { pg_trgm } });
  const db = pgliteDb(pglite, () => undefined);
  try {
    await prepare(db);
    return await pglite.dumpDataDir('none');
  } finally {
    await db.close();
  }
}

function pgliteDb(pglite: PGlite, unlock: () => void): Db {
  const inTx = (tx: Transaction): Db =>
    inTransactionOf(() => db, {
      query: (sql, params) => timed(sql, () => tx.query(sql, params as unknown[])),
      exec: async (sql) => {
        await timed(sql, () => tx.exec(sql));
      },
      transaction: (fn) => fn(inTx(tx)),
      ...notInTransaction,
    });
  const db: Db = {
    query: (sql, params) => timed(sql, () => pglite.query(sql, params as unknown[])),
    exec: async (sql) => {
      await timed(sql, () => pglite.exec(sql));
    },
    // PGlite is a single connection: a transaction holds it exclusively until it ends, so
    // concurrent requests queue behind it (the same effect as row locks on PostgreSQL).
    transaction: (fn) =>
      pglite.transaction(async (tx) => {
        await nameActor(inTx(tx));
        return fn(inTx(tx));
      }),
    // In process: PGlite delivers a NOTIFY to its own listeners when the transaction commits.
    listen: (channel, onNotify) => pglite.listen(channelIdentifier(channel), onNotify),
    close: async () => {
      await pglite.close();
      unlock();
    },
  };
  return db;
}

async function pgQuery<T>(
  client: pg.Pool | pg.PoolClient,
  sql: string,
  params?: readonly SqlParam[],
): Promise<{ rows: T[] }> {
  const result = await client.query(sql, params as unknown[]);
  return { rows: result.rows as T[] };
}

type OnOwnConnection = <T>(fn: (connection: Db) => Promise<T>) => Promise<T>;

const ownConnections = new WeakMap<Db, OnOwnConnection>();

/**
 * Runs `fn` on a connection of its own, outside any transaction, for work that needs one
 * session throughout: session-level advisory locks, statements PostgreSQL refuses inside a
 * transaction (CREATE INDEX CONCURRENTLY). The connection is closed afterwards rather than
 * pooled, so nothing the session set (a lock, a setting) reaches a request. Undefined, and `fn`
 * not called, unless `db` is a PostgreSQL pool (PGlite is a single connection).
 */
export function onOwnConnection<T>(
  db: Db,
  fn: (connection: Db) => Promise<T>,
): Promise<T> | undefined {
  return ownConnections.get(db)?.(fn);
}

/** How long a request waits for a connection before the database counts as unavailable. */
const CONNECT_TIMEOUT_MS = 5000;
/** The pool's size unless told otherwise. */
const POOL_MAX = 10;
/** How long a fresh connection that tells a full pool from a hung database may take to answer. */
const PROBE_TIMEOUT_MS = 2000;
/** A full pool is logged at most this often (with the refusals since the last line). */
const BUSY_LOG_INTERVAL_MS = 60_000;
/** What pg-pool says when a request waited its whole timeout for a pooled connection. */
const POOL_WAIT_TIMED_OUT = 'timeout exceeded when trying to connect';

/**
 * Tells when the database stops answering and when it is back, one line each: an outage is
 * logged once, not once per request that meets it.
 */
function outageLog() {
  let downSince: number | undefined;
  return {
    down(error: unknown) {
      if (downSince !== undefined) return;
      downSince = Date.now();
      log.error({ err: error }, 'The database is unavailable: requests get 503 until it is back');
    },
    up() {
      if (downSince === undefined) return;
      log.warn({ downMs: Date.now() - downSince }, 'The database is available again');
      downSince = undefined;
    },
  };
}

/**
 * Tells a full pool apart from a database that does not answer (a hung one fills the pool too):
 * the database counts as answering when a statement came back while the request waited (a busy
 * pool hands its connections on), or else when a fresh connection of its own answers
 * `SELECT 1`. One such connection at a time, however many requests ask.
 */
function answeringCheck(connectionString: string, timeoutMs: number) {
  let lastAnswerAt = 0;
  let probing: Promise<boolean> | undefined;
  const probe = async () => {
    const client = new pg.Client({
      connectionString,
      connectionTimeoutMillis: Math.min(PROBE_TIMEOUT_MS, timeoutMs),
      query_timeout: Math.min(PROBE_TIMEOUT_MS, timeoutMs),
    });
    // A probe that fails is an answer (false), not a crash of the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      lastAnswerAt = Date.now();
      return true;
    } catch {
      return false;
    } finally {
      client.end().catch(() => undefined);
    }
  };
  return {
    answered() {
      lastAnswerAt = Date.now();
    },
    /** Whether the database answered since `since` (a Date.now() reading), or answers now. */
    isAnswering(since: number): Promise<boolean> {
      if (lastAnswerAt >= since) return Promise.resolve(true);
      probing ??= probe().finally(() => {
        probing = undefined;
      });
      return probing;
    },
  };
}

/**
 * Tells that requests are refused for a full pool: counted each time, logged at most once per
 * BUSY_LOG_INTERVAL_MS with the pool's size, the requests waiting and the refusals since.
 */
function busyLog(pool: pg.Pool, max: number) {
  let loggedAt: number | undefined;
  let refused = 0;
  return () => {
    dbPoolRefusals.inc();
    refused += 1;
    const now = Date.now();
    if (loggedAt !== undefined && now - loggedAt < BUSY_LOG_INTERVAL_MS) return;
    loggedAt = now;
    log.warn(
      {
        poolSize: max,
        inUse: pool.totalCount - pool.idleCount,
        waiting: pool.waitingCount,
        refused,
      },
      `The server is busy: all ${max} database connections are in use and ${pool.waitingCount} requests wait for one; a request that waits out the connect timeout gets 503`,
    );
    refused = 0;
  };
}

/** Sizes of a pool other than the defaults, for tests. */
interface PoolOptions {
  max?: number;
  connectTimeoutMs?: number;
}

/** Opens a connection pool to a PostgreSQL server. */
export function createPgDb(connectionString: string, options: PoolOptions = {}): Db {
  const max = options.max ?? POOL_MAX;
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: connectTimeoutMs });
  const unwatch = watchPool(pool);
  const outage = outageLog();
  const answering = answeringCheck(connectionString, connectTimeoutMs);
  const busy = busyLog(pool, max);
  // An idle client that loses its connection (PostgreSQL stopped) must not crash the process;
  // the pool drops it and connects afresh when next asked.
  pool.on('error', (error) => outage.down(error));
  /** Runs `work`, turning a lost or missing connection into DatabaseUnavailableError. */
  const guarded = async <T>(work: () => Promise<T>, connecting = false): Promise<T> => {
    const started = Date.now();
    try {
      const result = await work();
      // A connection handed out is no proof: an idle one may be dead without the pool knowing
      // yet, and saying "available again" on it would log the outage twice.
      if (!connecting) {
        answering.answered();
        outage.up();
      }
      return result;
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) throw error;
      if (connecting && isPoolWaitTimeout(error) && (await answering.isAnswering(started))) {
        busy();
        throw new DatabaseBusyError(error);
      }
      if (connecting || isLostConnection(error)) {
        outage.down(error);
        throw new DatabaseUnavailableError(error);
      }
      // PostgreSQL answered (with an error of the statement): it is there.
      answering.answered();
      outage.up();
      throw error;
    }
  };
  // The pool hears a connection's errors only while it is idle: one lost while checked out
  // between two statements (PostgreSQL restarted mid-transaction) would be an uncaught 'error'
  // event, which ends the process. Heard here, the next statement fails as unavailable.
  const heard = new WeakSet<pg.PoolClient>();
  const connect = () =>
    guarded(async () => {
      const client = await pool.connect();
      if (!heard.has(client)) {
        heard.add(client);
        client.on('error', (error) => outage.down(error));
      }
      return client;
    }, true);
  /** Gives `client` back to the pool, which closes it instead when its connection failed. */
  const release = (client: pg.PoolClient, error?: unknown) =>
    client.release(error instanceof DatabaseUnavailableError ? error : undefined);
  const onClient = (client: pg.PoolClient): Db =>
    inTransactionOf(() => db, {
      query: (sql, params) => timed(sql, () => guarded(() => pgQuery(client, sql, params))),
      exec: async (sql) => {
        await timed(sql, () => guarded(() => client.query(sql)));
      },
      transaction: (fn) => fn(onClient(client)),
      ...notInTransaction,
    });
  const withClient = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await connect();
    let failure: unknown;
    try {
      return await guarded(() => work(client));
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      release(client, failure);
    }
  };
  /** Runs `fn` in a transaction on `client`, which stays checked out meanwhile. */
  const transactionOn = async <T>(client: pg.PoolClient, fn: (tx: Db) => Promise<T>) => {
    try {
      await timed('BEGIN', () => guarded(() => client.query('BEGIN')));
      await nameActor(onClient(client));
      const result = await fn(onClient(client));
      await timed('COMMIT', () => guarded(() => client.query('COMMIT')));
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  };
  const db: Db = {
    // Timed from the wait for a connection: a pool too small shows in the statements' time.
    query: (sql, params) => timed(sql, () => withClient((client) => pgQuery(client, sql, params))),
    exec: async (sql) => {
      await timed(sql, () => withClient((client) => client.query(sql)));
    },
    transaction: async (fn) => {
      const client = await connect();
      let failure: unknown;
      try {
        return await transactionOn(client, fn);
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        release(client, failure);
      }
    },
    listen: (channel, onNotify, onLost) =>
      pgListen(connectionString, channelIdentifier(channel), onNotify, onLost),
    close: async () => {
      unwatch();
      await pool.end();
    },
  };
  ownConnections.set(db, async (fn) => {
    const client = await connect();
    try {
      return await fn({
        query: (sql, params) => timed(sql, () => guarded(() => pgQuery(client, sql, params))),
        exec: async (sql) => {
          await timed(sql, () => guarded(() => client.query(sql)));
        },
        transaction: (inner) => transactionOn(client, inner),
        ...notInTransaction,
      });
    } finally {
      // Closed, not pooled: what the session holds (an advisory lock, a setting) ends with it.
      client.release(true);
    }
  });
  return db;
}

function isPoolWaitTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === POOL_WAIT_TIMED_OUT;
}

/** Reconnect delays of a lost LISTEN connection: doubling from 500 ms to at most 30 s. */
const LISTEN_RETRY_MS = { first: 500, max: 30_000 };

/**
 * LISTEN needs a connection of its own that stays open (a pooled one would be handed to other
 * queries). When it is lost (server restart, network) it is opened again with growing delays,
 * and `onNotify(undefined)` tells the listener it may have missed notifications.
 */
async function pgListen(
  connectionString: string,
  channel: string,
  onNotify: (payload: string | undefined) => void,
  onLost?: () => void,
): Promise<Unlisten> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let delay = LISTEN_RETRY_MS.first;

  const open = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload);
    });
    // A lost connection emits 'error' (and then 'end'); either one schedules one reconnect.
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      next.end().catch(() => undefined);
      if (!stopped) onLost?.();
      if (!stopped) retryTimer = setTimeout(reopen, delay);
      delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
    };
    next.on('error', (error) => {
      log.error({ err: error, channel }, `LISTEN ${channel} connection lost`);
      lost();
    });
    next.on('end', lost);
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    client = next;
  };
  const reopen = () => {
    retryTimer = undefined;
    open().then(
      () => {
        delay = LISTEN_RETRY_MS.first;
        if (stopped) void client?.end();
        else onNotify(undefined);
      },
      (error: unknown) => {
        log.error({ err: error, channel }, `LISTEN ${channel}: reconnecting failed`);
        if (!stopped) retryTimer = setTimeout(reopen, delay);
        delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
      },
    );
  };

  await open();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const current = client;
    client = undefined;
    await current?.end();
  };
}
