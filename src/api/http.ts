/**
 * The app's one HTTP client: a ky instance with the spec §7 session refresh rule in a single
 * beforeRequest hook, plus `apiRequest`, the typed, validated call every resource module uses.
 * An access token the server refuses (401: its session ended, or the user's role changed) is
 * refreshed once and the request sent again; only when that fails does the session end.
 *
 * The session itself lives in src/machines; it plugs in through `configureSession` so that this
 * layer never imports a machine.
 */
import ky, { type KyInstance, type Options, type SearchParamsOption } from 'ky';
import { jwtDecode } from 'jwt-decode';
import { z } from 'zod/mini';
import { isSessionEndingError, toApiError } from './errors';
import { envelope, refreshResultSchema, type RefreshResult } from '../../contract/schemas';
import { endpoint, ENDPOINTS, EVENT_POSITION_HEADER } from '../../contract/paths';
import { sessionBridge as bridgeNow, type SessionTokens } from './session-bridge';
import { noteReadPosition, streamCovers } from './read-positions';
import { takeFirstRead } from './first-read';
import { noteAnswer } from './first-answer';

/** Refresh when the access token expires within this margin. */
export const REFRESH_MARGIN_MS = 30_000;
/** Tokens issued before this instant (2022-07-19 UTC) predate the ability claim format. */
export const TOKEN_CUTOFF = Date.UTC(2022, 6, 19);
/** Web Lock that serialises refreshes across tabs. */
export const REFRESH_LOCK_NAME = 'avatar-studio:refresh';
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface HttpConfig {
  /** Base the relative API paths (`v1/auth/login`) resolve against. */
  baseUrl: string | URL;
  /** Per-attempt timeout; `false` disables it. */
  timeoutMs: number | false;
  /** Replaces the global fetch (tests, instrumentation). */
  fetch?: typeof globalThis.fetch;
}

/** Per-request data the hooks read from ky's `context`. */
interface RequestContext {
  /** Auth endpoints and other public calls: no refresh rule, a 401 does not end the session. */
  isPublic?: boolean;
  /** Sent again after a refresh that a 401 asked for: another 401 ends the session. */
  isReplay?: boolean;
  /** Sent once the live stream had started (./read-positions.ts). */
  streamCovered?: boolean;
}

interface AccessTokenClaims {
  exp?: number;
  iat?: number;
  ability?: unknown;
}

/** Spec §7: whether the access token must be refreshed before an authenticated request. */
export function needsRefresh(
  token: string | null | undefined,
  session: Pick<SessionTokens, '_id' | 'email'> | null | undefined,
  nowMs: number,
): boolean {
  if (!token) return true;
  if (session?._id && !session.email) return true;
  let claims: AccessTokenClaims;
  try {
    claims = jwtDecode<AccessTokenClaims>(token);
  } catch {
    return true;
  }
  if (claims.ability === undefined || claims.ability === null) return true;
  // A token without exp or iat cannot prove it is fresh, so it is treated like an old one.
  if (typeof claims.exp !== 'number' || claims.exp * 1000 - nowMs <= REFRESH_MARGIN_MS) return true;
  return typeof claims.iat !== 'number' || claims.iat * 1000 < TOKEN_CUTOFF;
}

let inFlightRefresh: Promise<SessionTokens | null> | null = null;

const contextOf = (options: { context: Record<string, unknown> }) =>
  options.context as RequestContext;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** Runs `work` under the cross-tab refresh lock when the browser has Web Locks. */
async function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // jsdom and older browsers have no Web Locks; in-tab single-flighting still applies there.
  if (locks === undefined) return work();
  return locks.request(REFRESH_LOCK_NAME, work);
}

async function refreshInsideLock(refused?: string, force = false): Promise<SessionTokens | null> {
  const session = bridgeNow();
  // Re-read under the lock: another tab may have rotated the pair while this one waited.
  const tokens = session?.getTokens() ?? null;
  const due = force || tokens?.token === refused || needsRefresh(tokens?.token, tokens, Date.now());
  if (!session || !tokens?.refreshToken || !due) return tokens;
  try {
    const data = await postRefresh({ token: tokens.token, refreshToken: tokens.refreshToken });
    session.onRefreshed(data);
    return { ...tokens, ...data };
  } catch (error) {
    const apiError = toApiError(error);
    if (isSessionEndingError(apiError)) session.onSessionInvalid();
    throw apiError;
  }
}

/**
 * Refreshes the session now when it needs it, when its token is still `refused` (one the
 * server refused), or in any case with `force` (e.g. once the user's abilities changed);
 * concurrent callers share one in-flight refresh call.
 */
export function refreshSession(
  options: { refused?: string; force?: boolean } = {},
): Promise<SessionTokens | null> {
  const { refused, force } = options;
  inFlightRefresh ??= withRefreshLock(() => refreshInsideLock(refused, force)).finally(() => {
    inFlightRefresh = null;
  });
  return inFlightRefresh;
}

/** Bodies that can be sent a second time (a stream cannot). */
function isReplayable(body: unknown): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof Blob ||
    body instanceof FormData ||
    body instanceof URLSearchParams
  );
}

/**
 * After a 401 to an authenticated request: refreshes the refused token and sends the request
 * again, once. Answers that response, or undefined when there is no new token or the request
 * cannot be sent again. A failed refresh rejects (and ends the session when it says the
 * session is over, see refreshInsideLock).
 */
async function replayAfterRefusal(
  request: Request,
  options: { body?: unknown; signal?: AbortSignal | null; context: Record<string, unknown> },
): Promise<Response | undefined> {
  const refused = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  if (refused === undefined || !isReplayable(options.body)) return undefined;
  const tokens = await refreshSession({ refused });
  if (!tokens?.token || tokens.token === refused) return undefined;
  const headers = new Headers(request.headers);
  headers.delete('authorization'); // beforeRequest sets the new one
  return client(request.url, {
    // The refused request's address is absolute already.
    prefixUrl: '',
    method: request.method,
    headers,
    body: options.body as BodyInit | null | undefined,
    ...(options.signal ? { signal: options.signal } : {}),
    context: { ...options.context, isReplay: true } satisfies RequestContext,
    // The caller's ky call decides whether a failure throws.
    throwHttpErrors: false,
  });
}

async function tokensForAuthenticatedRequest(): Promise<SessionTokens | null> {
  const tokens = bridgeNow()?.getTokens() ?? null;
  if (!tokens?.refreshToken || !needsRefresh(tokens.token, tokens, Date.now())) return tokens;
  return refreshSession();
}

function createClient(config: HttpConfig): KyInstance {
  return ky.create({
    prefixUrl: config.baseUrl,
    timeout: config.timeoutMs,
    // Retries belong to the query cache, which knows which calls are idempotent, and to
    // signed-in POSTs, made idempotent by their key (POST_RETRY).
    retry: 0,
    headers: { accept: 'application/json' },
    ...(config.fetch ? { fetch: config.fetch } : {}),
    hooks: {
      beforeRequest: [
        async (request, options) => {
          const tokens = contextOf(options).isPublic
            ? (bridgeNow()?.getTokens() ?? null)
            : await tokensForAuthenticatedRequest();
          if (tokens?.token) request.headers.set('authorization', `Bearer ${tokens.token}`);
          contextOf(options).streamCovered = streamCovers();
        },
        // A record's page: the answer boot.ts read before the scripts ran, if it is this one.
        (request) => takeFirstRead(request),
      ],
      beforeError: [
        async (error) => {
          // The server's error body ({ code, message }), for toApiError.
          const text = await error.response
            .clone()
            .text()
            .catch(() => '');
          let data: unknown = text === '' ? undefined : text;
          try {
            data = JSON.parse(text);
          } catch {
            // Not JSON: kept as text.
          }
          return Object.assign(error, { data });
        },
      ],
      afterResponse: [
        async (request, options, response) => {
          const context = contextOf(options);
          if (response.ok) noteAnswer();
          const position = response.headers.get(EVENT_POSITION_HEADER);
          if (position !== null && /^\d{1,15}$/.test(position)) {
            noteReadPosition(Number(position), context.streamCovered ?? false);
          }
          if (response.status !== 401 || context.isPublic) return undefined;
          if (!context.isReplay) {
            const replayed = await replayAfterRefusal(request, options);
            if (replayed) return replayed;
          }
          bridgeNow()?.onSessionInvalid();
          return undefined;
        },
      ],
    },
  });
}

function defaultBaseUrl(): URL {
  const configured: unknown = import.meta.env.VITE_API_BASE;
  const base = typeof configured === 'string' && configured !== '' ? configured : '/';
  const origin = typeof location === 'undefined' ? 'http://localhost/' : location.href;
  // Without a trailing slash, URL resolution would replace the base's last path segment.
  return new URL(base.endsWith('/') ? base : `${base}/`, origin);
}

let config: HttpConfig = { baseUrl: defaultBaseUrl(), timeoutMs: DEFAULT_TIMEOUT_MS };
let client = createClient(config);

/**
 * Rebuilds the app's ky instance with other settings (base URL, timeout, fetch).
 * @internal A seam for the tests, which aim the client at a fake fetch.
 */
export function configureHttp(changes: Partial<HttpConfig>): void {
  config = { ...config, ...changes };
  client = createClient(config);
}

/** The app's ky instance, for calls apiRequest does not cover (uploads, blobs). */
export function httpClient(): KyInstance {
  return client;
}

type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RequestOptions<B = unknown> {
  method?: HttpMethod;
  /** JSON body; a `silent: true` flag in it is stripped and makes statuses >= 300 resolve. */
  json?: B;
  searchParams?: SearchParamsOption;
  /** false marks a public call: the refresh rule is skipped and a 401 does not end the session. */
  auth?: boolean;
  timeout?: number | false;
  signal?: AbortSignal;
  /** The version a change is based on: sent as If-Match (docs/api.md "Versions and conflicts"). */
  baseVersion?: number;
}

/** Marks a request body as silent; see SilentResult. */
export interface SilentFlag {
  silent?: true;
}

/** What a silent call resolves to: HTTP failures come back as values, transport failures still reject. */
export type SilentResult<T> =
  { ok: true; status: number; data: T } | { ok: false; status: number; body: unknown };

/** A silent body (`silent: true` literal) makes the call resolve to SilentResult. */
export type Outcome<B, T> = B extends { silent: true } ? SilentResult<T> : T;

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  // A SyntaxError here becomes a PARSING_ERROR in toApiError.
  return text === '' ? undefined : JSON.parse(text);
}

/** A random Idempotency-Key (getRandomValues, unlike randomUUID, also works over plain http). */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

/**
 * A signed-in POST carries an Idempotency-Key and is sent again with the same key when it may
 * not have reached the server or the server could not serve it yet: a network failure, a
 * timeout, a 503 (the database or the bucket is down; after its Retry-After, at most 5 s), or
 * the server still serving the first attempt (409 IDEMPOTENCY_KEY_IN_USE). The server carries a
 * key's request out once and answers a retry with the first answer, so a create is never made
 * twice (docs/api.md "Idempotency-Key").
 */
const POST_RETRY = {
  limit: 2,
  methods: ['post'],
  statusCodes: [503],
  afterStatusCodes: [503],
  maxRetryAfter: 5_000,
  retryOnTimeout: true,
  shouldRetry: ({ error }: { error: Error }) =>
    (error as { data?: { code?: unknown } }).data?.code === 'IDEMPOTENCY_KEY_IN_USE' || undefined,
};

function toKyOptions<B>(options: RequestOptions<B>): Options {
  const { method = 'get', auth = true, timeout, signal, baseVersion, searchParams } = options;
  const headers: Record<string, string> = {};
  if (baseVersion !== undefined) headers['if-match'] = `"${baseVersion}"`;
  const keyed = method === 'post' && auth;
  if (keyed) headers['idempotency-key'] = newIdempotencyKey();
  // `silent` is a client-only flag: it never reaches the server, and it turns non-2xx
  // answers into values instead of rejections.
  let json: unknown = options.json;
  let throwHttpErrors = true;
  if (isPlainObject(json) && 'silent' in json) {
    const { silent, ...body } = json;
    json = body;
    throwHttpErrors = silent !== true;
  }
  return {
    method,
    throwHttpErrors,
    context: { isPublic: !auth } satisfies RequestContext,
    ...(json === undefined ? {} : { json }),
    ...(searchParams === undefined ? {} : { searchParams }),
    ...(timeout === undefined ? {} : { timeout }),
    ...(signal === undefined ? {} : { signal }),
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(keyed ? { retry: POST_RETRY } : {}),
  };
}

/** Sends one API call and validates the `{ data }` envelope; rejects with ApiError only. */
export async function apiRequest<S extends z.core.$ZodType, B = undefined>(
  path: string,
  schema: S,
  options: RequestOptions<B> = {},
): Promise<Outcome<B, z.output<S>>> {
  const { json } = options;
  try {
    const response = await client(path, toKyOptions(options));
    const body = await readJson(response);
    if (!response.ok) {
      // Only reachable for silent calls: the others were rejected by ky already.
      return { ok: false, status: response.status, body } as Outcome<B, z.output<S>>;
    }
    const { data } = z.parse(envelope(schema), body) as { data: z.output<S> };
    const silent = isPlainObject(json) && json.silent === true;
    return (silent ? { ok: true, status: response.status, data } : data) as Outcome<B, z.output<S>>;
  } catch (error) {
    throw toApiError(error);
  }
}

/**
 * Sends one API call and validates the whole answer, for answers that carry more than `data`
 * (list pages have `pagination` beside it). No silent mode; rejects with ApiError only.
 */
export async function apiList<S extends z.core.$ZodType>(
  path: string,
  schema: S,
  options: Omit<RequestOptions<never>, 'json'> = {},
): Promise<z.output<S>> {
  try {
    const response = await client(path, toKyOptions(options));
    return z.parse(schema, await readJson(response));
  } catch (error) {
    throw toApiError(error);
  }
}

/** Rotates the token pair (POST v1/auth/refresh); the session rule is the usual caller. */
export function postRefresh(body: {
  token?: string | null;
  refreshToken: string;
}): Promise<RefreshResult> {
  const json = body.token ? body : { refreshToken: body.refreshToken };
  return apiRequest(endpoint(ENDPOINTS.refresh), refreshResultSchema, {
    method: 'post',
    json,
    auth: false,
  });
}
