/**
 * Applies the numbered SQL files in server/migrations once each, in order, recording them in
 * `schema_migrations`, under an advisory lock, so two servers starting together on one
 * PostgreSQL database never apply the same file twice.
 *
 * A file runs in one transaction, unless its first line is `-- migrate: no-transaction`: then
 * each of its statements runs on its own, for what PostgreSQL refuses inside a transaction,
 * `CREATE INDEX CONCURRENTLY` (an index built while the table's writers go on). Such a file is
 * recorded once all its statements succeeded; one that failed part way runs again from the
 * start, so every statement must be safe to run twice: a `CREATE INDEX CONCURRENTLY` whose
 * index is there and valid is skipped, and one a failed build left INVALID is dropped and built
 * again; a `DROP INDEX` says `IF EXISTS`. On PGlite (one embedded connection, which nothing else
 * writes through meanwhile) the file runs in one transaction like the others, CONCURRENTLY left
 * out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onOwnConnection, type Db } from './db';
import { log } from './log';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
/** Arbitrary constant shared by every server process of this application. */
const MIGRATION_LOCK_KEY = 7_314_159_265;
const FILE_PATTERN = /^\d{3}_[a-z0-9_]+\.sql$/;
const NO_TRANSACTION = /^-- migrate: no-transaction[ \t]*(\r?\n|$)/;
/** How often a server waiting for another's migrations asks for the lock again. */
const LOCK_RETRY_MS = 100;

export interface Migration {
  name: string;
  sql: string;
}

/** Reads the migration files in name order; a badly named file is an error, not a skip. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      if (!FILE_PATTERN.test(file)) {
        throw new Error(`Migration file "${file}" must be named NNN_snake_case.sql`);
      }
      return { name: file.replace(/\.sql$/, ''), sql: readFileSync(join(dir, file), 'utf8') };
    });
}

/** Brings the schema up to date; returns the names of the migrations applied by this call. */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  // Statements are checked before anything runs: a file that cannot be repaired is refused whole.
  const steps = migrations.map((migration) => ({
    ...migration,
    statements: NO_TRANSACTION.test(migration.sql) ? noTransactionStatements(migration) : undefined,
  }));
  return (
    onOwnConnection(db, (connection) => migrateOnServer(connection, steps)) ??
    migrateEmbedded(db, steps)
  );
}

interface Step extends Migration {
  /** The statements of a no-transaction file, each run on its own; undefined for the others. */
  statements: string[] | undefined;
}

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  name text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

async function isApplied(db: Db, name: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
  return rows.length > 0;
}

async function record(db: Db, name: string): Promise<void> {
  await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
}

/**
 * PostgreSQL: the whole run holds a session-level advisory lock on a connection of its own. A
 * server that finds it taken asks again every LOCK_RETRY_MS instead of waiting inside
 * pg_advisory_lock: a waiting statement holds a snapshot, which CREATE INDEX CONCURRENTLY waits
 * to end, while the waiter waits for the lock its builder holds (a deadlock PostgreSQL would
 * break by failing one of the two).
 */
async function migrateOnServer(connection: Db, steps: Step[]): Promise<string[]> {
  let waiting = false;
  for (;;) {
    const { rows } = await connection.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1) AS locked',
      [MIGRATION_LOCK_KEY],
    );
    if (rows[0]?.locked) break;
    if (!waiting) log.info('Waiting for another server to finish its migrations');
    waiting = true;
    await sleep(LOCK_RETRY_MS);
  }
  // The lock ends with the connection, which onOwnConnection closes whatever happens.
  await connection.exec(CREATE_MIGRATIONS_TABLE);
  const applied: string[] = [];
  for (const step of steps) {
    if (await isApplied(connection, step.name)) continue;
    if (step.statements === undefined) {
      await connection.transaction(async (tx) => {
        await tx.exec(step.sql);
        await record(tx, step.name);
      });
    } else {
      for (const statement of step.statements) await runOnItsOwn(connection, statement);
      await record(connection, step.name);
    }
    applied.push(step.name);
  }
  return applied;
}

/** PGlite: each file in a transaction, whose lock serialises two runs in one process. */
async function migrateEmbedded(db: Db, steps: Step[]): Promise<string[]> {
  const applied: string[] = [];
  for (const step of steps) {
    const sql = step.statements?.map(withoutConcurrently).join(';\n') ?? step.sql;
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.exec(CREATE_MIGRATIONS_TABLE);
      if (await isApplied(tx, step.name)) return false;
      await tx.exec(sql);
      await record(tx, step.name);
      return true;
    });
    if (ran) applied.push(step.name);
  }
  return applied;
}

const CREATE_INDEX_CONCURRENTLY =
  /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)\s+ON\s/i;

/** The index a `CREATE INDEX CONCURRENTLY` statement builds; undefined for other statements. */
function concurrentIndexName(statement: string): string | undefined {
  return CREATE_INDEX_CONCURRENTLY.exec(statement)?.[1]?.toLowerCase();
}

/**
 * Runs one statement of a no-transaction file. An index a run before this one built is kept
 * when valid; an INVALID one (its CONCURRENTLY build failed or was interrupted: it is not used
 * by reads, yet every write maintains it) is dropped first, without blocking writers either.
 */
async function runOnItsOwn(connection: Db, statement: string): Promise<void> {
  const index = concurrentIndexName(statement);
  if (index !== undefined) {
    const { rows } = await connection.query<{ valid: boolean }>(
      'SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)',
      [index],
    );
    if (rows[0]?.valid) return;
    if (rows[0]) {
      log.warn({ index }, `Rebuilding the index ${index}, left invalid by an interrupted build`);
      await connection.exec(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
    }
  }
  await connection.exec(statement);
}

function withoutConcurrently(statement: string): string {
  return statement.replace(/\bINDEX\s+CONCURRENTLY\b/i, 'INDEX');
}

/**
 * The statements of a no-transaction migration. A `CREATE INDEX CONCURRENTLY` must name its
 * index with a plain name, which is how a later run recognises what an earlier one left.
 */
function noTransactionStatements(migration: Migration): string[] {
  const statements = splitStatements(migration.sql);
  for (const statement of statements) {
    if (
      /^CREATE\s+(UNIQUE\s+)?INDEX\s+CONCURRENTLY\b/i.test(statement) &&
      concurrentIndexName(statement) === undefined
    ) {
      throw new Error(
        `Migration ${migration.name}: CREATE INDEX CONCURRENTLY needs a plain index name: ${statement}`,
      );
    }
  }
  return statements;
}

/**
 * Splits a SQL script at its semicolons, not those inside quotes, quoted names, dollar-quoted
 * bodies or comments; comments are left out and empty statements dropped.
 */
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let i = 0;
  const until = (end: string, from: number) => {
    const at = sql.indexOf(end, from);
    return at === -1 ? sql.length : at + end.length;
  };
  while (i < sql.length) {
    const rest = sql.slice(i, i + 2);
    const char = sql[i] as string;
    if (rest === '--') {
      i = until('\n', i);
      current += ' ';
    } else if (rest === '/*') {
      i = until('*/', i + 2);
      current += ' ';
    } else if (char === "'" || char === '"') {
      // A doubled quote inside is an escaped one: the scan goes on past it.
      let end = i + 1;
      for (;;) {
        end = until(char, end);
        if (sql[end] !== char) break;
        end += 1;
      }
      current += sql.slice(i, end);
      i = end;
    } else if (char === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0] as string;
      const end = until(tag, i + tag.length);
      current += sql.slice(i, end);
      i = end;
    } else if (char === ';') {
      statements.push(current);
      current = '';
      i += 1;
    } else {
      current += char;
      i += 1;
    }
  }
  statements.push(current);
  return statements.map((statement) => statement.trim()).filter((statement) => statement !== '');
}
