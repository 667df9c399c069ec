/**
 * Idempotency-Key on signed-in POSTs (as Stripe's API): the first request with a key is carried
 * out and its answer kept for 24 hours, per user; the same request sent again with that key
 * gets that answer again (with `Idempotent-Replayed: true`) instead of being applied twice. The
 * key with another request (method, address or body) is a 422; while the first is still being
 * served, a 409 to retry. Uploads (raw bytes, not kept to be compared) ignore the key.
 *
 * Nothing secret is kept: the routes whose answer carries one (declared `secret` in the route
 * table: an authenticator's secret, recovery codes) ignore the key, and the request's
 * fingerprint is an HMAC keyed by the server secret, so a copy of the table holds no answer
 * worth replaying and no hash of a body (a password) to guess at.
 */
import { createHmac } from 'node:crypto';
import type { Context, Next } from 'hono';
import { ROUTES } from '../../contract/routes';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { log } from '../log';
import { errorResponse, fail } from './errors';

/** How long a key answers with its first answer. */
const KEY_LIFETIME_MS = 24 * 3600 * 1000;
/**
 * A key whose first request never finished (its server stopped meanwhile) may be used again
 * after this long; no request is served for that long.
 */
const ABANDONED_MS = 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Answers bigger than this are not kept (a retry carries the request out again). */
const MAX_KEPT_BODY = 1024 * 1024;
/** The headers of an answer that are kept with it. */
const KEPT_HEADERS = ['content-type', 'etag', 'location'];
/**
 * Refusals a retry of the same request may get past (bad input fixed under the same key, rights
 * given, a limit's window over) are not kept; neither are failures of the server.
 */
const RETRYABLE = new Set([400, 401, 403, 413, 415, 429]);
/**
 * Keys one user holds at most: a new one lets go of the oldest past this many. A retry comes
 * within seconds of its request, and the table stays bounded however fast a session posts.
 */
export const MAX_KEYS_PER_USER = 1000;

/** `METHOD /path` patterns of the routes whose answer carries a secret (never kept). */
const SECRET_ROUTES = ROUTES.filter((route) => route.secret).map(
  (route) =>
    new RegExp(`^${route.method.toUpperCase()} ${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
);
const answersSecret = (method: string, path: string) =>
  SECRET_ROUTES.some((pattern) => pattern.test(`${method} ${path}`));

/** Requests already under a key: requireAuth may run twice for one (/private/v1). */
const underKey = new WeakSet<Request>();

/** The key of each request carried out under one, and whether its answer is kept already. */
const taken = new WeakMap<Request, { userId: string; key: string; kept: boolean }>();

interface KeptAnswer {
  request_hash: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

/**
 * Runs `next` for the signed-in user `userId` under the request's Idempotency-Key, if it has
 * one (see the file's comment); without one, just runs `next`.
 */
export async function underIdempotencyKey(
  deps: Pick<Deps, 'db' | 'now' | 'config'>,
  c: Context,
  userId: string,
  next: Next,
): Promise<void> {
  const key = c.req.header('idempotency-key');
  const { raw } = c.req;
  if (key === undefined || raw.method !== 'POST' || underKey.has(raw)) return next();
  if (c.req.path.startsWith('/v1/uploads/') || answersSecret(raw.method, c.req.path)) {
    return next();
  }
  underKey.add(raw);
  if (!KEY_PATTERN.test(key)) {
    fail(400, 'VALIDATION_ERROR', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  const url = new URL(raw.url);
  const hash = createHmac('sha256', deps.config.keys.idempotencyFingerprint)
    .update(`${raw.method} ${url.pathname}${url.search}\n`)
    .update(await c.req.text())
    .digest('hex');
  const { db } = deps;
  const now = deps.now();
  // The key is taken (a new row, or one expired or abandoned) in one statement, so two
  // requests racing with one key cannot both be carried out.
  const claim = await db.query(
    `INSERT INTO idempotency_keys (user_id, key, request_hash, created_at)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, key) DO UPDATE
       SET request_hash = EXCLUDED.request_hash, status = NULL, headers = NULL, body = NULL,
           created_at = EXCLUDED.created_at
       WHERE idempotency_keys.created_at <= $5
          OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at <= $6)
     RETURNING 1`,
    [
      userId,
      key,
      hash,
      now,
      new Date(now.getTime() - KEY_LIFETIME_MS),
      new Date(now.getTime() - ABANDONED_MS),
    ],
  );
  if (claim.rows.length === 0) {
    c.res = await keptAnswer(c, deps, userId, key, hash);
    return;
  }
  await letGoOfOldest(db, userId);
  const mine = { userId, key, kept: false };
  taken.set(raw, mine);
  // An answer kept by the create's own transaction stays: that create was committed.
  const forget = () =>
    db.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status IS NULL', [
      userId,
      key,
    ]);
  try {
    await next();
  } catch (error) {
    await forget().catch(() => forgetLater(forget));
    throw error;
  }
  const { res } = c;
  // Kept already by the create's transaction, with what it created.
  if (mine.kept && res.status < 300) return;
  const body = RETRYABLE.has(res.status) || res.status >= 500 ? null : await res.clone().text();
  try {
    if (body === null || body.length > MAX_KEPT_BODY) {
      await forget().catch(() => forgetLater(forget));
      return;
    }
    await storeAnswer(db, mine, res.status, keptHeaders(res), body);
  } catch (error) {
    // The request was carried out and is answered; a retry with the key meets a 409 until the
    // key counts as abandoned.
    log.warn({ err: error }, 'The answer of an Idempotency-Key request could not be kept');
  }
}

/** Lets go of the user's oldest answered keys past MAX_KEYS_PER_USER (a bounded index walk). */
async function letGoOfOldest(db: Pick<Db, 'query'>, userId: string): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys WHERE user_id = $1 AND key IN (
       SELECT key FROM idempotency_keys WHERE user_id = $1
       ORDER BY created_at DESC OFFSET $2 LIMIT 10)
     AND status IS NOT NULL`,
    [userId, MAX_KEYS_PER_USER],
  );
}

function keptHeaders(answer: Response): Record<string, string> {
  return Object.fromEntries(
    KEPT_HEADERS.flatMap((name) => {
      const value = answer.headers.get(name);
      return value === null ? [] : [[name, value]];
    }),
  );
}

function storeAnswer(
  db: Pick<Db, 'query'>,
  { userId, key }: { userId: string; key: string },
  status: number,
  headers: Record<string, string>,
  body: string,
) {
  return db.query(
    `UPDATE idempotency_keys SET status = $3, headers = $4, body = $5
     WHERE user_id = $1 AND key = $2`,
    [userId, key, status, JSON.stringify(headers), body],
  );
}

/**
 * Keeps `answer` as the answer of the request's Idempotency-Key (if it has one) in `tx`, the
 * transaction of what the request creates, which then answers `answer` too: the record and the
 * kept answer are committed together, so a retry after a commit whose acknowledgement was lost
 * (the connection died just then) gets this answer rather than creating the record again.
 */
export async function keepAnswer(tx: Pick<Db, 'query'>, c: Context, answer: Response) {
  const mine = taken.get(c.req.raw);
  if (mine === undefined) return;
  const body = await answer.clone().text();
  if (body.length > MAX_KEPT_BODY) return;
  await storeAnswer(tx, mine, answer.status, keptHeaders(answer), body);
  mine.kept = true;
}

/** How often a key whose request failed is tried to be let go of while the database is away. */
const FORGET_RETRY_MS = 1000;

/**
 * Lets go of a failed request's key once the database answers again (it failed because the
 * database went away), so the client's retry is carried out as soon as the database is back
 * rather than meeting 409s until the key counts as abandoned.
 */
function forgetLater(forget: () => Promise<unknown>): void {
  const deadline = Date.now() + ABANDONED_MS;
  const attempt = () => {
    forget().catch(() => {
      if (Date.now() < deadline) setTimeout(attempt, FORGET_RETRY_MS).unref();
    });
  };
  setTimeout(attempt, FORGET_RETRY_MS).unref();
}

/** The answer a request with a key already taken gets. */
async function keptAnswer(
  c: Context,
  deps: Pick<Deps, 'db'>,
  userId: string,
  key: string,
  hash: string,
): Promise<Response> {
  const { rows } = await deps.db.query<KeptAnswer>(
    `SELECT request_hash, status, headers, body FROM idempotency_keys
     WHERE user_id = $1 AND key = $2`,
    [userId, key],
  );
  const kept = rows[0];
  if (kept && kept.request_hash !== hash) {
    fail(
      422,
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used for another request; send a new key with a new request',
    );
  }
  if (!kept || kept.status === null) {
    // Also when the first request failed and let go of the key in between: retrying is right.
    c.header('Retry-After', '1');
    return errorResponse(
      c,
      409,
      'IDEMPOTENCY_KEY_IN_USE',
      'A request with this Idempotency-Key is still being served; try again in a moment',
    );
  }
  const headers = new Headers(kept.headers ?? {});
  headers.set('idempotent-replayed', 'true');
  return new Response(kept.body, { status: kept.status, headers });
}
