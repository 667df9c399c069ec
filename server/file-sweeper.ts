/**
 * Stored files nothing refers to any more (a replaced icon, an upload never saved to an asset,
 * the files of an asset purged from the Trash) are removed by a periodic sweep through the
 * storage interface, together with partial uploads a crashed process left behind. The same
 * sweep first purges the Trash records past their retention (server/trash-purge.ts).
 *
 * A file is only removed once it is older than a grace period (an upload is stored before the
 * form that uses it is saved) and no row refers to it. "Refers" means: a text column named
 * `*_url` in the database holds its `/files/<key>` address. Every file field is named so (the
 * five of assets, `cage_meshes.model_url`, `morphed_assets.model_url`), so a file column added
 * later is protected without being registered here.
 *
 * The check and the delete run under an exclusive advisory lock; every transaction that stores
 * a file address takes the same lock shared and checks the file exists after taking it
 * (`holdFileReferences`). So a save and a sweep never interleave: either the save commits first
 * and the sweep sees the reference, or the sweep deletes first and the save answers 400.
 */
import type { Db } from './db';
import type { Deps } from './deps';
import { fileUrl } from './storage';
import { forgetStoredFiles } from './stored-files';
import { purgeExpiredTrash } from './trash-purge';
import { log } from './log';
import { traced } from './tracing';

const sweepLog = log.child({ job: 'file-sweep' });

/** Unreferenced files younger than this are kept: their upload may not be saved yet. */
export const FILE_GRACE_MS = 24 * 3600 * 1000;
/** How often the server sweeps. */
export const FILE_SWEEP_INTERVAL_MS = 3600 * 1000;
/**
 * A partial upload not written to for this long belongs to no live request (Node ends a
 * request after 5 minutes by default), so another server sharing the folder is not writing it.
 */
export const PARTIAL_UPLOAD_AGE_MS = 15 * 60 * 1000;
/** Files checked and deleted per transaction (the lock is held that long). */
const SWEEP_BATCH = 200;
const REFERENCES_LOCK = 'files:references';

/**
 * Call inside the transaction that stores file addresses, before checking that the files
 * exist: until it commits, no sweep can delete a file it is about to refer to.
 */
export async function holdFileReferences(tx: Db): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock_shared(hashtext($1))', [REFERENCES_LOCK]);
}

/** The columns that may hold a stored file's address: every text column named `*_url`. */
export async function fileColumns(db: Db): Promise<{ table: string; column: string }[]> {
  const { rows } = await db.query<{ table: string; column: string }>(
    `SELECT c.table_name AS "table", c.column_name AS "column"
     FROM information_schema.columns c
     JOIN information_schema.tables t
       ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
       AND c.column_name LIKE '%\\_url' AND c.data_type = 'text'
     ORDER BY c.table_name, c.column_name`,
  );
  return rows;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Which of `urls` some row refers to. */
async function referencedUrls(tx: Db, urls: string[]): Promise<Set<string>> {
  const columns = await fileColumns(tx);
  if (columns.length === 0) return new Set();
  const selects = columns.map(
    ({ table, column }) =>
      `SELECT ${quoted(column)} AS url FROM ${quoted(table)} WHERE ${quoted(column)} = ANY($1::text[])`,
  );
  const { rows } = await tx.query<{ url: string }>(selects.join(' UNION '), [urls]);
  return new Set(rows.map((row) => row.url));
}

/** Deletes those of `keys` nothing refers to, under the exclusive lock; answers how many. */
async function deleteUnreferenced(deps: SweepDeps, keys: string[]): Promise<number> {
  return deps.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [REFERENCES_LOCK]);
    const used = await referencedUrls(tx, keys.map(fileUrl));
    const unused = keys.filter((key) => !used.has(fileUrl(key)));
    for (const key of unused) await deps.storage.delete(key);
    await forgetStoredFiles(tx, unused);
    return unused.length;
  });
}

type SweepDeps = Pick<Deps, 'db' | 'storage'>;

export interface SweepOptions {
  /** Default FILE_GRACE_MS. */
  graceMs?: number;
  /** Partial uploads last written longer ago than this are removed; default PARTIAL_UPLOAD_AGE_MS. */
  partialAgeMs?: number;
  /** When given, Trash records older than this many days are purged first (server/trash-purge.ts). */
  trashRetentionDays?: number;
}

export interface SweepResult {
  /** Stored files removed because nothing refers to them. */
  unreferenced: number;
  /** Partial uploads removed. */
  partial: number;
  /** Trash records deleted for ever (their files go in the same sweep). */
  purged: number;
}

/**
 * One sweep at `now`: expired Trash records, partial uploads, then unreferenced files older
 * than the grace period.
 */
export async function sweepFiles(
  deps: SweepDeps,
  now: Date,
  {
    graceMs = FILE_GRACE_MS,
    partialAgeMs = PARTIAL_UPLOAD_AGE_MS,
    trashRetentionDays,
  }: SweepOptions = {},
): Promise<SweepResult> {
  const purged =
    trashRetentionDays === undefined
      ? 0
      : await purgeExpiredTrash(deps.db, now, trashRetentionDays);
  const partial = await deps.storage.removeIncomplete(new Date(now.getTime() - partialAgeMs));
  const storedBefore = now.getTime() - graceMs;
  let unreferenced = 0;
  let batch: string[] = [];
  for await (const file of deps.storage.list()) {
    if (file.storedAt.getTime() >= storedBefore) continue;
    batch.push(file.key);
    if (batch.length === SWEEP_BATCH) {
      unreferenced += await deleteUnreferenced(deps, batch);
      batch = [];
    }
  }
  if (batch.length > 0) unreferenced += await deleteUnreferenced(deps, batch);
  return { unreferenced, partial, purged };
}

export interface FileSweeper {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** Sweeps every `intervalMs` (the first time one interval after the start). */
export function startFileSweeper(
  deps: SweepDeps & Pick<Deps, 'now'>,
  {
    intervalMs = FILE_SWEEP_INTERVAL_MS,
    onSwept = (result: SweepResult) => {
      if (result.unreferenced + result.partial + result.purged === 0) return;
      sweepLog.info(
        result,
        `File sweep: purged ${result.purged} Trash records, removed ${result.unreferenced} unreferenced files and ${result.partial} partial uploads.`,
      );
    },
    onError = (error: unknown) => sweepLog.error({ err: error }, 'File sweep failed'),
    ...options
  }: SweepOptions & {
    intervalMs?: number;
    onSwept?: (result: SweepResult) => void;
    onError?: (error: unknown) => void;
  } = {},
): FileSweeper {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() =>
      traced('file sweep', {}, async (note) => {
        const result = await sweepFiles(deps, deps.now(), options);
        note({
          'sweep.unreferenced': result.unreferenced,
          'sweep.partial': result.partial,
          'sweep.purged': result.purged,
        });
        return result;
      }).then(onSwept, onError),
    );
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
