/**
 * A fresh database per test file: in-memory PGlite by default, or — when TEST_DATABASE_URL
 * names a PostgreSQL server — a uniquely named database created there and dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import pg from 'pg';
import { createPgDb, createPgliteDb, type Db } from './db';
import { migrate } from './migrate';

export interface TestDb {
  db: Db;
  /** The database's address on PostgreSQL (for a second connection pool); undefined on PGlite. */
  url?: string;
  /** Closes the connection and drops the database (PostgreSQL). */
  close(): Promise<void>;
}

async function onServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates a migrated (unless `migrated: false`) empty database for one test file. */
export async function createTestDb(options: { migrated?: boolean } = {}): Promise<TestDb> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let testDb: TestDb;
  if (!serverUrl) {
    // A copy of the migrated database the global set-up made (migrating it again is a no-op).
    const file = (options.migrated ?? true) ? inject('pgliteTemplate') : '';
    const db = await createPgliteDb(undefined, file ? new Blob([readFileSync(file)]) : undefined);
    testDb = { db, close: () => db.close() };
  } else {
    const name = `avatar_studio_test_${process.pid}_${randomBytes(6).toString('hex')}`;
    // A copy of the migrated template the global set-up made, unless asked for an empty one.
    const template = (options.migrated ?? true) ? inject('pgTemplate') : '';
    await onServer(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const db = createPgDb(url.toString());
    testDb = {
      db,
      url: url.toString(),
      close: async () => {
        await db.close();
        await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  if (options.migrated ?? true) await migrate(testDb.db);
  return testDb;
}

/**
 * A migrated database on `serverUrl` for test files to copy (CREATE DATABASE ... TEMPLATE),
 * closed so that copies can be made, and how to drop it.
 */
export async function createPgTemplate(serverUrl: string, migrateDb: (db: Db) => Promise<unknown>) {
  const name = `avatar_studio_template_${process.pid}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createPgDb(url.toString());
  try {
    await migrateDb(db);
  } finally {
    await db.close();
  }
  return { name, drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A database whose every call fails with `message` (closing succeeds). */
export function failingDb(message: string): Db {
  const fail = () => Promise.reject(new Error(message));
  return {
    query: fail,
    exec: fail,
    transaction: fail,
    listen: fail,
    close: () => Promise.resolve(),
  };
}

/** `inner` with a count of the statements and transactions sent through it. */
export function countingDb(inner: Db): { db: Db; sent: () => number } {
  let sent = 0;
  const db: Db = {
    ...inner,
    query: (sql, params) => {
      sent += 1;
      return inner.query(sql, params);
    },
    exec: (sql) => {
      sent += 1;
      return inner.exec(sql);
    },
    transaction: (fn) => {
      sent += 1;
      return inner.transaction(fn);
    },
    listen: (...args) => inner.listen(...args),
    close: () => inner.close(),
  };
  return { db, sent: () => sent };
}
