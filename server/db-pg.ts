/** The PostgreSQL pool (DATABASE_URL; server/db.ts). */
import pg from 'pg';
import { log } from './log';
import { dbPoolRefusals, watchPool } from './metrics';
import {
  channelIdentifier,
  DatabaseBusyError,
  DatabaseUnavailableError,
  inTransactionOf,
  isLostConnection,
  nameActor,
  notInTransaction,
  ownConnections,
  timed,
  type Db,
  type SqlParam,
  type Unlisten,
} from './db-shared';

async function pgQuery<T>(
  client: pg.Pool | pg.PoolClient,
  sql: string,
  params?: readonly SqlParam[],
): Promise<{ rows: T[] }> {
  const result = await client.query(sql, params as unknown[]);
  return { rows: result.rows as T[] };
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
