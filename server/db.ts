/**
 * The one database seam of the server: a tiny interface with an embedded PGlite implementation
 * (default) and a PostgreSQL pool implementation (DATABASE_URL). Both speak the same SQL dialect.
 */
export {
  asActor,
  DatabaseUnavailableError,
  isDatabaseBusy,
  isDatabaseUnavailable,
  isDbError,
  onOwnConnection,
  PG_UNIQUE_VIOLATION,
  rootOf,
  type Db,
  type SqlParam,
  type Unlisten,
} from './db-shared';
export { createPgliteDb, pgliteTemplate } from './db-pglite';
export { createPgDb } from './db-pg';
