/**
 * Test harness: a real app on a fresh database with a controllable clock and an in-memory
 * mailbox, plus small request helpers. Each test file calls `useTestApp()` once.
 */
import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { apiErrorSchema, authResultSchema, type AuthResult, type Role } from '../contract/schemas';
import { createApp, type AppDeps } from './app';
import { settleDeliveries } from './deliveries';
import { hashPassword } from './auth/password';
import { createSessionCheck, type SessionCheck } from './auth/session-check';
import { loadConfig, type Config } from './config';
import type { Db } from './db';
import { createEventBus, type EventBus } from './event-bus';
import { createDevMailbox, type DevMailbox, type MailKind } from './mail';
import { sendDueMail } from './mail-outbox';
import { seed } from './seed';
import { createLocalStorage, type Storage } from './storage';
import { createTestDb, type TestDb } from './test-db';
import type { TestStorage } from './test-storage';
import { newId } from './ids';
import { answerProblem, checkAnswers } from './test-answers';
import { createUser } from './users';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256!';
export const ADMIN = { email: 'admin@test.avatar', password: 'admin-password' };

/** A configuration as the server would load it, with test values and `env` overrides. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    JWT_SECRET: TEST_SECRET,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATA_DIR: '/nonexistent/avatar-studio-test',
    STATIC_DIR: '/nonexistent/avatar-studio-test-dist',
    NODE_ENV: 'test',
    // Requests name their client in X-Forwarded-For (see `request`), as behind a proxy.
    TRUST_PROXY: 'true',
    ...env,
  });
}

export interface JsonResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

let clientCounter = 0;
/** A fresh client address per call, so per-client limits only bite where a test means them. */
export function uniqueClient(): string {
  clientCounter += 1;
  return `10.${(clientCounter >> 16) & 255}.${(clientCounter >> 8) & 255}.${clientCounter & 255}`;
}

let emailCounter = 0;
/** A fresh address per call, so rate limits of one test never touch another. */
export function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1;
  return `${prefix}.${emailCounter}.${process.pid}@example.com`;
}

/** Asserts that `response` is an API error with `status` (and `code` when given). */
export function expectError(response: JsonResponse, status: number, code?: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const body = apiErrorSchema.parse(response.body);
  expect(body.status).toBe(status);
  if (code !== undefined) expect(body.code).toBe(code);
  return body;
}

/** The `data` of a successful response. */
export function dataOf(response: JsonResponse): unknown {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { data: unknown }).data;
}

/**
 * Checks the answers of the apps a test file makes (server/test-answers.ts): a test fails on an
 * answer outside the OpenAPI document that it got, and the file on one got before its tests.
 * `createApp` makes an app whose answers are checked (another database, a failing store, ...).
 */
export function useAnswerCheck() {
  const outside: string[] = [];
  let reported = 0;
  const record = process.env.ANSWER_CHECK_LOG;
  const report = (problem: string) => {
    if (record) appendFileSync(record, `${problem}\n`);
    else outside.push(problem);
  };
  const answerCheck = checkAnswers(report);
  /** The problems not yet reported. */
  const take = () => {
    const problems = outside.slice(reported);
    reported = outside.length;
    return problems;
  };
  afterEach(() => {
    expect(take(), 'answers outside the OpenAPI document').toEqual([]);
  });
  afterAll(() => {
    expect(take(), 'answers outside the OpenAPI document').toEqual([]);
  });
  return {
    answerCheck,
    take,
    createApp: (deps: Omit<AppDeps, 'answerCheck'>) => createApp({ ...deps, answerCheck }),
    /** `fetch` to a server the test started as a process, whose answers are checked the same. */
    fetch: async (url: string, init?: RequestInit) => {
      const response = await fetch(url, init);
      // fetch has decoded the body already; the header still names the encoding it came in.
      const headers = new Headers(response.headers);
      headers.delete('content-encoding');
      const { status } = response;
      const decoded = new Response(response.clone().body, { status, headers });
      const problem = await answerProblem(init?.method ?? 'GET', new URL(url).pathname, decoded);
      if (problem) report(problem);
      return response;
    },
  };
}

export function useTestApp(
  env: Record<string, string> = {},
  /** Where files are kept; default a fresh local folder (`storageDir`). */
  options: { storage?: () => Promise<TestStorage> } = {},
) {
  const clock = { current: new Date('2030-01-01T00:00:00.000Z') };
  const now = () => new Date(clock.current);
  const mailbox: DevMailbox = createDevMailbox({ now });
  const config = testConfig(env);
  let testDb: TestDb | undefined;
  let app: ReturnType<typeof createApp> | undefined;
  let storageDir: string | undefined;
  let storage: Storage | undefined;
  let testStorage: TestStorage | undefined;
  let events: EventBus | undefined;
  let sessions: SessionCheck | undefined;
  // Answers outside the document: `request` fails at once, the check's hooks otherwise.
  const answers = useAnswerCheck();

  beforeAll(async () => {
    testDb = await createTestDb();
    await seed(testDb.db, config, now());
    if (options.storage) {
      testStorage = await options.storage();
      storage = testStorage.storage;
    } else {
      storageDir = await mkdtemp(join(tmpdir(), 'avatar-studio-files-'));
      storage = createLocalStorage(storageDir);
    }
    events = createEventBus(testDb.db);
    sessions = createSessionCheck(testDb.db);
    app = answers.createApp({
      db: testDb.db,
      mail: mailbox,
      mailbox,
      config,
      now,
      storage,
      events,
      sessions,
    });
  });
  afterAll(async () => {
    // The app's model derivations first: one still running writes to the storage removed here.
    if (testDb) await settleDeliveries({ db: testDb.db, now });
    await events?.close();
    await sessions?.close();
    await testDb?.close();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
    await testStorage?.close();
  });

  const request = async (
    method: string,
    path: string,
    options: {
      body?: unknown;
      raw?: string;
      /** Raw bytes, or a stream sent without Content-Length (chunked). */
      bytes?: Uint8Array | ReadableStream<Uint8Array>;
      token?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<JsonResponse> => {
    if (!app) throw new Error('useTestApp: app not ready (call inside a test)');
    const headers: Record<string, string> = {
      'x-forwarded-for': uniqueClient(),
      ...options.headers,
    };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | ReadableStream<Uint8Array> | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.bytes !== undefined) body = options.bytes;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    // A stream body needs duplex 'half' (a Node fetch requirement, not yet in the DOM types).
    const init = { method, headers, body, duplex: 'half' } as RequestInit;
    const response = await app.request(path, init);
    const problems = answers.take();
    if (problems.length > 0) {
      throw new Error(`Answer outside the OpenAPI document:\n${problems.join('\n')}`);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Non-JSON answers (static files) are returned as text.
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };

  const harness = {
    clock,
    config,
    mailbox,
    get storage(): Storage {
      if (!storage) throw new Error('useTestApp: storage not ready');
      return storage;
    },
    /** The folder `storage` keeps its files in. */
    get storageDir(): string {
      if (!storageDir) throw new Error('useTestApp: storage not ready');
      return storageDir;
    },
    get db(): Db {
      if (!testDb) throw new Error('useTestApp: db not ready');
      return testDb.db;
    },
    /** The app's event bus (GET /v1/events streams from it). */
    get events(): EventBus {
      if (!events) throw new Error('useTestApp: events not ready');
      return events;
    },
    /** The app's session check, for other apps on this database to share its cache. */
    get sessions(): SessionCheck {
      if (!sessions) throw new Error('useTestApp: sessions not ready');
      return sessions;
    },
    /** Another app whose answers are checked too (e.g. on another database). */
    createApp: answers.createApp,
    /** The app itself, e.g. to serve it on a real port. */
    get app(): ReturnType<typeof createApp> {
      if (!app) throw new Error('useTestApp: app not ready');
      return app;
    },
    request,
    get: (path: string, token?: string) => request('GET', path, { token }),
    post: (path: string, body: unknown, token?: string) => request('POST', path, { body, token }),
    patch: (path: string, body: unknown, token?: string) => request('PATCH', path, { body, token }),
    /** Requests from one client address (as a proxy names it), e.g. one person's device. */
    from(client = uniqueClient()) {
      const headers = { 'x-forwarded-for': client };
      return {
        client,
        get: (path: string, token?: string) => request('GET', path, { token, headers }),
        post: (path: string, body: unknown, token?: string) =>
          request('POST', path, { body, token, headers }),
        patch: (path: string, body: unknown, token?: string) =>
          request('PATCH', path, { body, token, headers }),
      };
    },
    /** Moves the clock forward. */
    advance(ms: number) {
      clock.current = new Date(clock.current.getTime() + ms);
    },
    /** Sends the queued mail into `mailbox`, as the mail worker of a server does. */
    deliverMail: () => sendDueMail({ db: harness.db, mail: mailbox, now }),
    /** The newest mail of `kind` sent to `email`, once the queued mail is delivered. */
    async lastMail(email: string, kind: MailKind) {
      await harness.deliverMail();
      const mail = mailbox.list(email).find((m) => m.kind === kind);
      if (!mail) throw new Error(`no ${kind} mail for ${email}`);
      return mail;
    },
    /** Signs up a registered user through the API. */
    async signUp(email = uniqueEmail(), password = 'password-123'): Promise<AuthResult> {
      return authResultSchema.parse(
        dataOf(await harness.post('/v1/auth/signup', { email, password })),
      );
    },
    /** Signs up an anonymous user (no e-mail, no password) through the API. */
    async signUpAnonymous(): Promise<AuthResult> {
      return authResultSchema.parse(dataOf(await harness.post('/v1/auth/signup', {})));
    },
    /** Logs in with e-mail and password through the API. */
    async login(email: string, password: string): Promise<AuthResult> {
      return authResultSchema.parse(
        dataOf(await harness.post('/v1/auth/login', { email, password })),
      );
    },
    /** Creates a verified user with `role` directly in the database and logs it in. */
    async loginAs(role: Exclude<Role, 'anonymous'>): Promise<AuthResult> {
      const email = uniqueEmail(role);
      const password = 'password-123';
      await createUser(harness.db, {
        email,
        passwordHash: await hashPassword(password),
        role,
        verifiedAt: now(),
        now: now(),
      });
      return harness.login(email, password);
    },
  };
  return harness;
}

/**
 * One token per role (and the developer's id), signed in once before the file's tests: read
 * them inside a test, not at the top of the file.
 */
export function useRoleTokens(t: ReturnType<typeof useTestApp>) {
  const tokens = { admin: '', developer: '', developerId: '', user: '', anonymous: '' };
  beforeAll(async () => {
    tokens.admin = (await t.loginAs('admin')).token;
    ({ token: tokens.developer, _id: tokens.developerId } = await t.loginAs('developer'));
    tokens.user = (await t.loginAs('user')).token;
    tokens.anonymous = (await t.signUpAnonymous()).token;
  });
  return tokens;
}

/**
 * Answers `change` made while the user's session lock is held, as a refresh holds it before it
 * inserts the next refresh token (whose foreign key reads the user row): a change that holds the
 * user row against that read and then waits for the session lock deadlocks with the refresh
 * (PostgreSQL aborts one of them).
 */
export async function whileRefreshing(
  t: ReturnType<typeof useTestApp>,
  userId: string,
  change: () => Promise<JsonResponse>,
): Promise<JsonResponse> {
  let answer: Promise<JsonResponse> | undefined;
  await t.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sessions:${userId}`]);
    answer = change();
    // Until the change waits for the session lock (or has answered without it).
    const waiting = async () =>
      (
        await t.db.query(
          `SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
           WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()`,
        )
      ).rows.length > 0;
    let settled = false;
    void answer.finally(() => (settled = true));
    while (!settled && !(await waiting())) await new Promise((resolve) => setImmediate(resolve));
    await tx.query(
      `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, created_at)
       SELECT $1, $2, id, $1, $3, $3 FROM sessions WHERE user_id = $2 LIMIT 1`,
      [newId(), userId, t.clock.current],
    );
  });
  return answer!;
}
