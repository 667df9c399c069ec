/**
 * The parts of the database seam (server/db.ts) both implementations share: the interface,
 * the errors the server reacts to, the actor of a transaction and the query timings.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { dbQueryDuration, secondsSince, statementLabel } from './metrics';

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
export function channelIdentifier(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Bad channel name ${channel}`);
  return channel;
}

/** Runs `work` (the statement `sql`), counting its time in db_query_duration_seconds. */
export async function timed<T>(sql: string, work: () => Promise<T>): Promise<T> {
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
export class DatabaseBusyError extends DatabaseUnavailableError {
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

export function isLostConnection(error: unknown): boolean {
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

const roots = new WeakMap<Db, Db>();

/** The database `db` is a transaction of (`db` itself outside transactions). */
export function rootOf(db: Db): Db {
  return roots.get(db) ?? db;
}

/** Records `tx` as a transaction of `root`, for rootOf. */
export function inTransactionOf(root: () => Db, tx: Db): Db {
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
export async function nameActor(tx: Pick<Db, 'query'>) {
  const actor = actors.getStore();
  if (actor !== undefined) await tx.query("SELECT set_config('app.actor_id', $1, true)", [actor]);
}

/** A transaction's connection may neither listen nor close: those belong to the database. */
export const notInTransaction: Pick<Db, 'listen' | 'close'> = {
  listen: () => Promise.reject(new Error('listen() inside a transaction')),
  close: () => Promise.reject(new Error('close() inside a transaction')),
};

export type OnOwnConnection = <T>(fn: (connection: Db) => Promise<T>) => Promise<T>;

export const ownConnections = new WeakMap<Db, OnOwnConnection>();

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
