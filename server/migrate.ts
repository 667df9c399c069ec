/**
 * Applies the numbered SQL files in server/migrations once each, in order, recording them in
 * `schema_migrations`. Each file runs in its own transaction under an advisory lock, so two
 * servers starting together on one PostgreSQL database never apply the same file twice.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
/** Arbitrary constant shared by every server process of this application. */
const MIGRATION_LOCK_KEY = 7_314_159_265;
const FILE_PATTERN = /^\d{3}_[a-z0-9_]+\.sql$/;

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
  const applied: string[] = [];
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.exec(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           name text PRIMARY KEY,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [
        migration.name,
      ]);
      if (done.rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
