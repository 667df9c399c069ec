/** The embedded PGlite database (the default; server/db.ts). */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  channelIdentifier,
  inTransactionOf,
  nameActor,
  notInTransaction,
  timed,
  type Db,
} from './db-shared';

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
