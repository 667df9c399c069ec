/**
 * GET /readyz: whether this server can serve now. The database answers, the file store answers
 * and every migration this build knows is applied; each check has a short time limit, so a
 * hung part is a quick 503 naming it rather than a probe that hangs too.
 *
 * Anyone may call the route, so what it costs is bounded whatever the traffic: one answer is
 * reused for a second, and a check still running (a hung database) is waited on again rather
 * than started a second time.
 */
import type { Db } from './db';
import { loadMigrations } from './migrate';
import type { Storage } from './storage';

/** How long one check may take before it counts as failed. */
export const READY_CHECK_TIMEOUT_MS = 2000;
/** How long an answer is reused (by the clock the server is given). */
const REUSE_MS = 1000;

/** `failed`: the part answered with an error; `pending`: migrations not yet applied. */
export type CheckState = 'ok' | 'failed' | 'timeout' | 'pending';

export interface Readiness {
  status: 'ready' | 'unready';
  checks: { database: CheckState; fileStore: CheckState; migrations: CheckState };
}

class TimeoutError extends Error {}
class PendingError extends Error {}

/** `work` or a TimeoutError after `ms`, whichever comes first. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `run` started at most once at a time; each caller waits for it up to the time limit. */
function singleFlight(run: () => Promise<void>, timeoutMs: number) {
  let running: Promise<void> | undefined;
  return () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return within(timeoutMs, running);
  };
}

export interface ReadinessDeps {
  db: Db;
  storage: Storage;
  now: () => Date;
  /** Told why a check failed (the answer itself says only which). */
  onFailure?: (check: keyof Readiness['checks'], error: unknown) => void;
  /** The migrations this build applies (default: server/migrations). */
  migrationNames?: () => string[];
  timeoutMs?: number;
}

/** A function answering the server's readiness, as GET /readyz reports it. */
export function createReadiness(deps: ReadinessDeps): () => Promise<Readiness> {
  const timeoutMs = deps.timeoutMs ?? READY_CHECK_TIMEOUT_MS;
  let known: string[] | undefined;
  const migrationNames =
    deps.migrationNames ?? (() => (known ??= loadMigrations().map((m) => m.name)));
  const checks = {
    database: singleFlight(async () => {
      await deps.db.query('SELECT 1');
    }, timeoutMs),
    fileStore: singleFlight(() => deps.storage.check(), timeoutMs),
    migrations: singleFlight(async () => {
      const { rows } = await deps.db.query<{ name: string }>('SELECT name FROM schema_migrations');
      const applied = new Set(rows.map((row) => row.name));
      const missing = migrationNames().filter((name) => !applied.has(name));
      if (missing.length > 0) throw new PendingError(`Not applied: ${missing.join(', ')}`);
    }, timeoutMs),
  };
  const state = async (name: keyof typeof checks): Promise<CheckState> => {
    try {
      await checks[name]();
      return 'ok';
    } catch (error) {
      deps.onFailure?.(name, error);
      if (error instanceof TimeoutError) return 'timeout';
      return error instanceof PendingError ? 'pending' : 'failed';
    }
  };

  let last: { at: number; answer: Promise<Readiness> } | undefined;
  return () => {
    const at = deps.now().getTime();
    if (last && at >= last.at && at - last.at < REUSE_MS) return last.answer;
    const answer = (async (): Promise<Readiness> => {
      const [database, fileStore, migrations] = await Promise.all([
        state('database'),
        state('fileStore'),
        state('migrations'),
      ]);
      const ready = database === 'ok' && fileStore === 'ok' && migrations === 'ok';
      return { status: ready ? 'ready' : 'unready', checks: { database, fileStore, migrations } };
    })();
    last = { at, answer };
    return answer;
  };
}
