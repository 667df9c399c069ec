/**
 * GET /v1/events (docs/api.md "Live events") on a real HTTP server: what a client sees of
 * changes made through the API, what each role may see, resume after Last-Event-ID (exactly the
 * missed events, also when events commit during the resume), reset, heartbeats, the end at
 * token expiry, slow clients, morph job progress, and two servers on one PostgreSQL database.
 */
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { createMongoAbility } from '@casl/ability';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppAbility } from '../contract/ability';
import { MB } from '../core/files/rules';
import { authResultSchema, streamEventSchema, type StreamEvent } from '../contract/schemas';
import { createSessionCheck } from './auth/session-check';
import { createPgDb, type Db, type SqlParam } from './db';
import { createEventBus, type EventBus } from './event-bus';
import { openEventStream } from './event-stream';
import { latestEventSeq, readEventsAfter, recordAssetEvents } from './events';
import { newId } from './ids';
import { createDevMailbox } from './mail';
import { startMorphWorker } from './morph-worker';
import { seed } from './seed';
import { fileUrl } from './storage';
import { ADMIN, dataOf, uniqueClient, uniqueEmail, useTestApp } from './test-app';
import { createTestDb } from './test-db';
import { readAvatar } from './test-files';
import { captureLog } from './test-log';

const QUEUE_BYTES = 64 * 1024;
const REPLAY_LIMIT = 20;
const t = useTestApp({
  EVENTS_HEARTBEAT_MS: '50',
  EVENTS_REPLAY_LIMIT: String(REPLAY_LIMIT),
  EVENTS_QUEUE_BYTES: String(QUEUE_BYTES),
});
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;

/** Serves `app` on a free loopback port; answers its base URL and a function that stops it. */
async function serveOn(app: { fetch: (request: Request) => Response | Promise<Response> }) {
  const server: ServerType = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      server.close(() => resolve());
    });
  return { base: `http://127.0.0.1:${port}`, stop };
}

let base = '';
let stopServer = () => Promise.resolve();
beforeAll(async () => {
  ({ base, stop: stopServer } = await serveOn(t.app));
});
afterAll(() => stopServer());

interface Message {
  id?: string;
  event: string;
  data: string;
  retry?: number;
}

/** A client of the stream that parses Server-Sent Events as they arrive. */
class StreamClient {
  readonly messages: Message[] = [];
  comments = 0;
  ended = false;

  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {}

  static async open(
    token: string | undefined,
    options: { lastEventId?: string; query?: string; at?: string; from?: string } = {},
  ): Promise<StreamClient> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    // The client address, as the proxy the test server trusts names it.
    if (options.from !== undefined) headers['x-forwarded-for'] = options.from;
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const abort = new AbortController();
    const response = await fetch(`${options.at ?? base}/v1/events${options.query ?? ''}`, {
      headers,
      signal: abort.signal,
    });
    const opened = new StreamClient(response, abort);
    if (response.ok) void opened.read();
    return opened;
  }

  private async read() {
    const reader = this.response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // Closed by the test or cut by the server.
    }
    this.ended = true;
  }

  private parse(block: string) {
    const message: Message = { event: 'message', data: '' };
    let fields = 0;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments += 1;
        continue;
      }
      const [, name, value = ''] = /^([^:]+): ?(.*)$/.exec(line) ?? [];
      fields += 1;
      if (name === 'id') message.id = value;
      else if (name === 'event') message.event = value;
      else if (name === 'data') message.data = value;
      else if (name === 'retry') message.retry = Number(value);
    }
    if (fields > 0) this.messages.push(message);
  }

  /** The asset events received (not `ready` or `reset`). */
  events(): StreamEvent[] {
    return this.messages
      .filter((m) => m.event !== 'ready' && m.event !== 'reset')
      .map((m) => {
        const event = streamEventSchema.parse(JSON.parse(m.data));
        // The frame's id and event name are the event's seq and routing key.
        expect(m.id).toBe(String(event.seq));
        expect(m.event).toBe(event.routingKey);
        return event;
      });
  }

  async until(check: (client: StreamClient) => boolean, what: string, timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs;
    while (!check(this)) {
      if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(this.messages)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Waits for the first frame (`ready` or `reset`). */
  started() {
    return this.until((c) => c.messages.length > 0, 'the first frame');
  }

  /** Waits for an event with `routingKey` (on `assetId`) and answers it. */
  async eventFor(routingKey: string, assetId?: string): Promise<StreamEvent> {
    const find = () =>
      this.events().find(
        (e) => e.routingKey === routingKey && (assetId === undefined || e.assetId === assetId),
      );
    await this.until(() => find() !== undefined, routingKey);
    return find()!;
  }

  close() {
    this.abort.abort();
  }
}

let assetCount = 0;
/** A new asset (no event: it is put straight into the table) with `modelUrl`. */
async function createAsset(type = 'outfit', modelUrl: string | null = null): Promise<string> {
  const id = newId();
  assetCount += 1;
  await t.db.query(
    `INSERT INTO assets (id, name, type, gender, model_url, position, created_at, updated_at)
     SELECT $1, $2, $3, 'female', $4, COALESCE(max(position), 0) + 1, $5, $5 FROM assets`,
    [id, `Stream test ${assetCount}`, type, modelUrl, t.clock.current],
  );
  return id;
}

/** Records `count` events straight into the log (in one transaction), each with `data`. */
async function recordEvents(count: number, data: Record<string, unknown> = {}) {
  const assetId = await createAsset();
  await t.db.transaction((tx) =>
    recordAssetEvents(
      tx,
      Array.from({ length: count }, () => ({
        assetId,
        event: 'updated' as const,
        actorId: null,
        data,
        at: t.clock.current,
      })),
    ),
  );
}

async function seqsAfter(seq: number): Promise<number[]> {
  const { rows } = await t.db.query<{ seq: string | number }>(
    'SELECT seq FROM asset_events WHERE seq > $1 ORDER BY seq',
    [seq],
  );
  return rows.map((row) => Number(row.seq));
}

const lock = (id: string, token: string) =>
  t.request('PUT', `/v1/assets/${id}/lock`, { token, body: {} });
const unlock = (id: string, token: string) =>
  t.request('PUT', `/v1/assets/${id}/unlock`, { token, body: {} });

/** An admin's stream resumed after `from`, reading through `db`. */
function resumeAsAdmin(db: Db, from: number) {
  return openEventStream({
    db,
    bus: t.events,
    ability: createMongoAbility<AppAbility>([{ action: 'manage', subject: 'all' }]),
    after: from,
    expiresAt: new Date(Date.now() + 60_000),
    now: () => new Date(),
    limits: { heartbeatMs: 60_000, replayLimit: 1000, queueBytes: 16 * MB },
  });
}

describe('the stream', () => {
  it('brings every change made through the API with its id, routing key, asset and actor', async () => {
    const admin = await t.loginAs('admin');
    const watcher = await t.loginAs('admin');
    const stream = await StreamClient.open(watcher.token);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.started();
    expect(stream.messages[0]).toMatchObject({ event: 'ready', retry: 3000 });
    expect(stream.messages[0]!.id).toBe(String(await latestEventSeq(t.db)));

    const id = await createAsset();
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM tags LIMIT 1');
    const tagId = rows[0]!.id;
    dataOf(await lock(id, admin.token));
    const locked = await stream.eventFor('asset.locked.v1', id);
    expect(locked).toMatchObject({
      assetId: id,
      actorId: admin._id,
      actorEmail: admin.email,
      data: { locked: true },
    });
    dataOf(await unlock(id, admin.token));
    dataOf(await t.patch(`/v1/assets/${id}`, { name: 'Renamed live' }, admin.token));
    const renamed = await stream.eventFor('asset.updated.v2', id);
    expect(renamed.data).toMatchObject({ asset: { name: 'Renamed live' } });
    dataOf(await t.post('/v1/tags/set-tag', { assetId: id, tagId }, admin.token));
    dataOf(await t.request('DELETE', `/v1/assets/${id}`, { token: admin.token }));
    await stream.eventFor('asset.deleted.v1', id);

    const events = stream.events();
    expect(events.map((e) => e.routingKey)).toEqual([
      'asset.locked.v1',
      'asset.locked.v1',
      'asset.updated.v1',
      'asset.updated.v2',
      'asset.updated.v1',
      'asset.updated.v2',
      'asset.deleted.v1',
    ]);
    expect(events[4]!.data).toMatchObject({ changes: { tagIds: { to: [tagId] } } });
    expect(events.every((e) => e.actorId === admin._id)).toBe(true);
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    stream.close();
  });

  it('needs a valid access token (401) and a well-formed Last-Event-ID (400)', async () => {
    expect((await StreamClient.open(undefined)).response.status).toBe(401);
    expect((await StreamClient.open('not-a-token')).response.status).toBe(401);
    const { token } = await t.loginAs('admin');
    for (const lastEventId of ['abc', '-1', '1e3', '12345678901234567890']) {
      expect((await StreamClient.open(token, { lastEventId })).response.status).toBe(400);
    }
  });

  it('sends a comment line as a heartbeat every EVENTS_HEARTBEAT_MS', async () => {
    const stream = await StreamClient.open((await t.loginAs('user')).token);
    await stream.started();
    await stream.until((c) => c.comments >= 3, 'three heartbeats', 2000);
    stream.close();
  });
});

describe('what each role sees', () => {
  it('a user gets no application events, only their own user-asset events, and no actor or data', async () => {
    const admin = await t.loginAs('admin');
    const user = await t.loginAs('user');
    const otherUser = await t.loginAs('user');
    const adminStream = await StreamClient.open(admin.token);
    const userStream = await StreamClient.open(user.token);
    await Promise.all([adminStream.started(), userStream.started()]);

    const id = await createAsset();
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM applications LIMIT 1');
    const body = { applicationId: rows[0]!.id };
    dataOf(await t.post(`/v1/assets/${id}/application`, body, admin.token));
    const assign = (userId: string) =>
      t.post(`/private/v1/user-assets/${userId}`, { assetIds: [id] }, admin.token);
    dataOf(await assign(otherUser._id));
    dataOf(await assign(user._id));
    dataOf(await lock(id, admin.token));
    await adminStream.eventFor('asset.locked.v1', id);
    await userStream.eventFor('asset.locked.v1', id);

    expect(adminStream.events().map((e) => [e.routingKey, e.data.userId])).toEqual([
      ['asset.added-to-application.v1', undefined],
      ['asset.user-assets-added.v1', otherUser._id],
      ['asset.user-assets-added.v1', user._id],
      ['asset.locked.v1', undefined],
    ]);
    const seen = userStream.events();
    expect(seen.map((e) => e.routingKey)).toEqual([
      'asset.user-assets-added.v1',
      'asset.locked.v1',
    ]);
    for (const event of seen) {
      expect(event).toMatchObject({ assetId: id, actorId: null, actorEmail: null, data: {} });
    }
    adminStream.close();
    userStream.close();
  });

  it('tag events reach every reader of tags; user administration only admins, never its user', async () => {
    const admin = await t.loginAs('admin');
    const developer = await t.loginAs('developer');
    const user = await t.loginAs('user');
    const streams = await Promise.all(
      [admin, developer, user].map((who) => StreamClient.open(who.token)),
    );
    await Promise.all(streams.map((stream) => stream.started()));
    const [adminStream, developerStream, userStream] = streams as [
      StreamClient,
      StreamClient,
      StreamClient,
    ];
    const tag = dataOf(await t.post('/v1/tags', { name: 'Streamed Tag' }, admin.token)) as {
      id: string;
    };
    dataOf(await t.patch(`/private/v1/users/${user._id}`, { role: 'developer' }, admin.token));
    const last = await adminStream.eventFor('user.role-changed.v1');
    expect(last).toMatchObject({ userId: user._id, actorId: admin._id, assetId: null });
    // Every other administrator action on a user (or an invitation) reaches the admins too.
    const target = await t.signUp();
    const onTarget = (action: string) =>
      t.post(`/private/v1/users/${target._id}/${action}`, {}, admin.token);
    // While it has a session to end (disabling ends them all without an event of its own).
    dataOf(
      await t.request('DELETE', `/private/v1/users/${target._id}/sessions`, { token: admin.token }),
    );
    for (const action of ['reset-password', 'resend-verification', 'disable', 'enable']) {
      dataOf(await onTarget(action));
    }
    const invite = { email: uniqueEmail('streamed'), role: 'user' };
    expect((await t.post('/private/v1/invitations', invite, admin.token)).status).toBe(201);
    const adminKeys = [
      'user.password-reset-sent.v1',
      'user.verification-sent.v1',
      'user.disabled.v1',
      'user.enabled.v1',
      'user.sessions-ended.v1',
    ];
    for (const key of adminKeys) {
      expect(await adminStream.eventFor(key)).toMatchObject({
        userId: target._id,
        actorId: admin._id,
      });
    }
    await adminStream.eventFor('user.invited.v1');
    expect(await adminStream.eventFor('tag.created.v1')).toMatchObject({
      tagId: tag.id,
      actorEmail: admin.email,
      data: { name: 'Streamed Tag' },
    });
    expect(await developerStream.eventFor('tag.created.v1')).toMatchObject({ tagId: tag.id });
    // A user reads tags: a notice, without who or what.
    expect(await userStream.eventFor('tag.created.v1')).toMatchObject({
      tagId: tag.id,
      actorId: null,
      data: {},
    });
    // Past the last event of the test: anything the others were sent has arrived by now.
    dataOf(await t.post('/v1/tags', { name: 'Streamed Tag 2' }, admin.token));
    await developerStream.until((c) => c.events().length === 2, 'the second tag');
    for (const stream of [developerStream, userStream]) {
      const keys = stream.events().map((e) => e.routingKey);
      expect(keys.filter((key) => key.startsWith('user.'))).toEqual([]);
    }
    for (const stream of streams) stream.close();
  });
});

describe('resume', () => {
  it('after Last-Event-ID sends exactly the missed events, in order, none twice', async () => {
    const admin = await t.loginAs('admin');
    const id = await createAsset();
    const first = await StreamClient.open(admin.token);
    await first.started();
    dataOf(await lock(id, admin.token));
    dataOf(await unlock(id, admin.token));
    await first.until((c) => c.events().length === 2, 'two events');
    const lastId = first.messages.at(-1)!.id!;
    first.close();

    for (const name of ['One', 'Two', 'Three']) {
      dataOf(await t.patch(`/v1/assets/${id}`, { name }, admin.token));
    }
    const missed = await seqsAfter(Number(lastId));
    expect(missed).toHaveLength(6);
    for (const options of [{ lastEventId: lastId }, { query: `?lastEventId=${lastId}` }]) {
      const resumed = await StreamClient.open(admin.token, options);
      await resumed.until((c) => c.events().length >= 6, 'the missed events');
      // A little longer, to see that nothing else (a double) follows.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(resumed.messages[0]).toMatchObject({ event: 'ready', id: lastId });
      expect(resumed.events().map((e) => e.seq)).toEqual(missed);
      resumed.close();
    }
  });

  it('past EVENTS_REPLAY_LIMIT, or at a position the database never had, sends reset', async () => {
    const admin = await t.loginAs('admin');
    const from = await latestEventSeq(t.db);
    await recordEvents(REPLAY_LIMIT + 1);
    for (const lastEventId of [String(from), String((await latestEventSeq(t.db)) + 1000)]) {
      const head = await latestEventSeq(t.db);
      const stream = await StreamClient.open(admin.token, { lastEventId });
      await stream.started();
      expect(stream.messages[0]).toMatchObject({ event: 'reset', id: String(head) });
      expect(JSON.parse(stream.messages[0]!.data)).toEqual({ seq: head, heartbeatMs: 50 });
      // Then it goes on live.
      const id = await createAsset();
      dataOf(await lock(id, admin.token));
      await stream.eventFor('asset.locked.v1', id);
      expect(stream.events()).toHaveLength(1);
      stream.close();
    }
  });

  it('loses nothing and doubles nothing when events commit while the resume reads', async () => {
    const from = await latestEventSeq(t.db);
    await recordEvents(5);
    // Three events commit (and reach the bus) just before the resume's read of the table
    // runs, so they come both from the table and from the bus.
    let injected = false;
    const db: Db = {
      ...t.db,
      query: async (sql, params) => {
        if (!injected && sql.includes('e.seq > $1')) {
          injected = true;
          const head = await latestEventSeq(t.db);
          let stopListening = () => {};
          const delivered = new Promise<void>((resolve) => {
            void t.events
              .subscribe((events) => {
                if (events.some((e) => e.seq >= head + 3)) resolve();
              })
              .then((stop) => (stopListening = stop));
          });
          await recordEvents(3);
          await delivered;
          stopListening();
        }
        return t.db.query(sql, params);
      },
    };
    const ability = createMongoAbility<AppAbility>([{ action: 'manage', subject: 'all' }]);
    const body = openEventStream({
      db,
      bus: t.events,
      ability,
      after: from,
      expiresAt: new Date(Date.now() + 60_000),
      now: () => new Date(),
      limits: { heartbeatMs: 60_000, replayLimit: 100, queueBytes: MB },
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const ids = () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    const readUntil = async (count: number) => {
      while (ids().length < count) {
        text += decoder.decode((await reader.read()).value, { stream: true });
      }
    };
    await readUntil(1 + 8);
    await recordEvents(2);
    await readUntil(1 + 10);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(injected).toBe(true);
    expect(ids().slice(1)).toEqual(await seqsAfter(from));
    await reader.cancel();
  });

  it('a late notice of older events, or a burst while resuming, neither ends nor gaps the stream', async () => {
    const from = await latestEventSeq(t.db);
    await recordEvents(REPLAY_LIMIT + 1);
    const stale = await readEventsAfter(t.db, from, 100);
    const after = stale.at(-1)!.seq;
    await recordEvents(3);
    // The bus hands the new subscriber a late batch of old events (PostgreSQL delivers
    // NOTIFY after the commit, so this happens)…
    const bus: EventBus = {
      ...t.events,
      subscribe: async (listener, onClose) => {
        const stop = await t.events.subscribe(listener, onClose);
        listener(stale);
        return stop;
      },
    };
    // …and more than the hold's limit commit (and reach the bus) while the table is read.
    let burst = false;
    const db: Db = {
      ...t.db,
      query: async (sql, params) => {
        if (!burst && sql.includes('e.seq > $1')) {
          burst = true;
          const head = await latestEventSeq(t.db);
          let stopListening = () => {};
          const delivered = new Promise<void>((resolve) => {
            void t.events
              .subscribe((events) => {
                if (events.some((e) => e.seq > head + REPLAY_LIMIT)) resolve();
              })
              .then((stop) => (stopListening = stop));
          });
          await recordEvents(REPLAY_LIMIT + 2);
          await delivered;
          stopListening();
        }
        return t.db.query(sql, params);
      },
    };
    const ability = createMongoAbility<AppAbility>([{ action: 'manage', subject: 'all' }]);
    const body = openEventStream({
      db,
      bus,
      ability,
      after,
      expiresAt: new Date(Date.now() + 60_000),
      now: () => new Date(),
      limits: { heartbeatMs: 60_000, replayLimit: REPLAY_LIMIT, queueBytes: MB },
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const ids = () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    const read = async () => {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      text += decoder.decode(value, { stream: true });
    };
    while (!burst || ids().length < 1 + 3) await read();
    const expected = await seqsAfter(after);
    expect(expected.length).toBeGreaterThan(REPLAY_LIMIT + 3);
    while (ids().length < 1 + expected.length) await read();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(text).toMatch(/^retry: \d+\nid: \d+\nevent: ready/);
    expect(ids().slice(1)).toEqual(expected);
    await reader.cancel();
  });

  it('several clients resuming while many transactions commit each get every event once', async () => {
    const { token } = await t.loginAs('admin');
    const from = await latestEventSeq(t.db);
    await recordEvents(4);
    const streams = await Promise.all(
      Array.from({ length: 5 }, () => StreamClient.open(token, { lastEventId: String(from) })),
    );
    // Fewer than EVENTS_REPLAY_LIMIT in all: more would rightly end in `reset` (or a drop).
    await Promise.all(Array.from({ length: 12 }, () => recordEvents(1)));
    const expected = await seqsAfter(from);
    expect(expected).toHaveLength(16);
    for (const stream of streams) {
      await stream.until((c) => c.events().length >= 16, 'every event');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const stream of streams) {
      expect(stream.events().map((e) => e.seq)).toEqual(expected);
      stream.close();
    }
  });

  it('a far-back resume lets other work run between its pages', async () => {
    const from = await latestEventSeq(t.db);
    await recordEvents(350);
    // A callback queued as each page of the resume arrives: it runs before the next page is
    // asked for only if the resume gives way to timers and I/O (other requests) in between.
    let turns = 0;
    const turnsBeforePage: number[] = [];
    const db: Db = {
      ...t.db,
      query: async <T>(sql: string, params?: readonly SqlParam[]) => {
        const page = sql.includes('ORDER BY e.seq LIMIT');
        if (page) turnsBeforePage.push(turns);
        const answer = await t.db.query<T>(sql, params);
        if (page) setImmediate(() => (turns += 1));
        return answer;
      },
    };
    const reader = resumeAsAdmin(db, from).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while ((text.match(/^id: /gm) ?? []).length < 1 + 350) {
      text += decoder.decode((await reader.read()).value, { stream: true });
    }
    await reader.cancel();
    expect(turnsBeforePage).toEqual([0, 1, 2, 3]);
  });

  it('many resumes at once read at most 2 pages at a time, and each gets its events', async () => {
    const from = await latestEventSeq(t.db);
    await recordEvents(250);
    const expected = await seqsAfter(from);
    let reading = 0;
    let mostAtOnce = 0;
    const db: Db = {
      ...t.db,
      query: async (sql, params) => {
        const page = sql.includes('ORDER BY e.seq LIMIT');
        if (page) mostAtOnce = Math.max(mostAtOnce, (reading += 1));
        try {
          return await t.db.query(sql, params);
        } finally {
          if (page) reading -= 1;
        }
      },
    };
    // Eight clients reconnecting together, each from far back.
    const received = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const reader = resumeAsAdmin(db, from).getReader();
        const decoder = new TextDecoder();
        let text = '';
        const ids = () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
        while (ids().length < 1 + expected.length) {
          text += decoder.decode((await reader.read()).value, { stream: true });
        }
        await reader.cancel();
        return ids().slice(1);
      }),
    );
    for (const seqs of received) expect(seqs).toEqual(expected);
    expect(mostAtOnce).toBeGreaterThan(0);
    expect(mostAtOnce).toBeLessThanOrEqual(2);
  });

  it.runIf(onPostgres)('numbers events in commit order, not in insert order', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = await createAsset();
    const second = await createAsset();
    const event = (assetId: string) => ({
      assetId,
      event: 'updated' as const,
      actorId: null,
      at: t.clock.current,
    });
    // The first transaction inserts first but commits last.
    const slow = t.db.transaction(async (tx) => {
      await recordAssetEvents(tx, [event(first)]);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.db.transaction((tx) => recordAssetEvents(tx, [event(second)]));
    release();
    await slow;
    const { rows } = await t.db.query<{ asset_id: string }>(
      'SELECT asset_id FROM asset_events WHERE asset_id = ANY($1::text[]) ORDER BY seq',
      [[first, second]],
    );
    expect(rows.map((row) => row.asset_id)).toEqual([second, first]);
  });
});

describe('read positions', () => {
  it('an authenticated read names the event position it was taken at; a stream started there brings what came after', async () => {
    const admin = await t.loginAs('admin');
    const other = await t.loginAs('admin');
    const id = await createAsset();
    const read = await t.get(`/v1/assets/${id}`, admin.token);
    expect(read.status).toBe(200);
    const position = read.headers.get('event-position');
    expect(position).toBe(String(await latestEventSeq(t.db)));

    // Someone else saves between the page's read and the opening of its stream.
    dataOf(await t.patch(`/v1/assets/${id}`, { name: 'Saved in between' }, other.token));
    const stream = await StreamClient.open(admin.token, { lastEventId: position! });
    const renamed = await stream.eventFor('asset.updated.v2', id);
    expect(renamed.data).toMatchObject({ asset: { name: 'Saved in between' } });

    // With a stream open, the bus names it: past the change once the change was published.
    const later = await t.get('/v1/assets?limit=1', admin.token);
    expect(Number(later.headers.get('event-position'))).toBeGreaterThanOrEqual(renamed.seq);
    stream.close();
  });

  it('tells a stranger, a refused token, a write and the stream itself nothing', async () => {
    const admin = await t.loginAs('admin');
    const id = await createAsset();
    const answers = [
      await t.get(`/v1/assets/${id}`),
      await t.get(`/v1/assets/${id}`, 'not-a-token'),
      await t.patch(`/v1/assets/${id}`, { name: 'Written' }, admin.token),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 200]);
    expect(answers.map((answer) => answer.headers.get('event-position'))).toEqual([
      null,
      null,
      null,
    ]);
    const stream = await StreamClient.open(admin.token);
    expect(stream.response.headers.get('event-position')).toBeNull();
    stream.close();
  });
});

describe('limits', () => {
  it('drops a client that does not read, with a bounded queue, and it can resume', async () => {
    const { token } = await t.loginAs('admin');
    // The streams of earlier tests are gone once their clients closed them.
    await vi.waitFor(() => expect(t.events.subscribers()).toBe(0));
    const before = 0;
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.pause();
    socket.write(
      `GET /v1/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    );
    const deadline = Date.now() + 5000;
    while (t.events.subscribers() === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(t.events.subscribers()).toBe(before + 1);
    const warn = captureLog();
    try {
      // 16 MB of events, far more than the socket buffers and the 64 KiB queue hold.
      const big = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 16 && t.events.subscribers() > before; i += 1) {
        await recordEvents(16, { big });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      while (t.events.subscribers() > before && Date.now() < deadline + 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(t.events.subscribers()).toBe(before);
      expect(warn.text()).toMatch(/dropped a client/);
    } finally {
      warn.restore();
    }
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.resume();
    await once(socket, 'close');
    expect(received).toBeLessThan(16 * MB);
  });

  it('never queues more than EVENTS_QUEUE_BYTES (and one frame) for a stream nobody reads', async () => {
    const closed = vi.fn();
    const warn = captureLog();
    try {
      const ability = createMongoAbility<AppAbility>([{ action: 'manage', subject: 'all' }]);
      const body = openEventStream({
        db: t.db,
        bus: t.events,
        ability,
        after: undefined,
        expiresAt: new Date(Date.now() + 60_000),
        now: () => new Date(),
        limits: { heartbeatMs: 60_000, replayLimit: 100, queueBytes: QUEUE_BYTES },
        onClose: closed,
      });
      const before = t.events.subscribers();
      await vi.waitFor(() => expect(t.events.subscribers()).toBe(before + 1));
      await recordEvents(10, { big: 'x'.repeat(16 * 1024) });
      await vi.waitFor(() => expect(closed).toHaveBeenCalledTimes(1));
      expect(t.events.subscribers()).toBe(before);
      // What was queued is discarded: the reader gets the error, not 160 KB.
      await expect(body.getReader().read()).rejects.toThrow(/bytes behind/);
    } finally {
      warn.restore();
    }
  });

  it("a guest, or an account whose address is unproven (a guest's rules), is refused the stream", async () => {
    const guest = await t.signUpAnonymous();
    const unproven = await t.signUp();
    for (const { token } of [guest, unproven]) {
      const stream = await StreamClient.open(token, { lastEventId: '0' });
      expect(stream.response.status).toBe(403);
      expect(await stream.response.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    const user = await StreamClient.open((await t.loginAs('user')).token);
    expect(user.response.status).toBe(200);
    user.close();
  });

  it('holds at most 10 streams of one user and 50 of one client address (429, Retry-After)', async () => {
    const open: StreamClient[] = [];
    const openAs = async (token: string, from: string) => {
      const stream = await StreamClient.open(token, { from });
      if (stream.response.ok) open.push(stream);
      return stream.response;
    };
    try {
      // One user from many addresses: the user's allowance.
      const { token } = await t.loginAs('user');
      for (let i = 0; i < 10; i += 1) {
        expect((await openAs(token, uniqueClient())).status).toBe(200);
      }
      const refused = await openAs(token, uniqueClient());
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
      // A stream that ends gives its place back.
      open.shift()!.close();
      await vi.waitFor(async () => expect((await openAs(token, uniqueClient())).status).toBe(200));

      // Many users from one address: the address's allowance, whoever asks.
      const office = uniqueClient();
      const users = await Promise.all(Array.from({ length: 6 }, () => t.loginAs('developer')));
      const tokens = users.flatMap((u) => Array<string>(10).fill(u.token));
      // All at once: a burst cannot slip past the count.
      const answers = await Promise.all(tokens.map((each) => openAs(each, office)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(50);
      expect(statuses.filter((status) => status === 429)).toHaveLength(10);
      expect((await openAs(users[0]!.token, office)).status).toBe(429);
      // Another address is not held up by that one.
      const last = users.at(-1)!.token;
      const elsewhere = await openAs(last, uniqueClient());
      expect(elsewhere.status).toBe(200);
    } finally {
      for (const stream of open) stream.close();
    }
  });

  it('replays at most 30 resumes a minute for one user and 60 for one client address; past them a resume gets reset', async () => {
    const from = await latestEventSeq(t.db);
    await recordEvents(5);
    const head = await latestEventSeq(t.db);
    const resume = async (token: string, address: string) => {
      const stream = await StreamClient.open(token, { lastEventId: String(from), from: address });
      expect(stream.response.status).toBe(200);
      await stream.started();
      const first = stream.messages[0]!;
      if (first.event === 'ready') await stream.until((c) => c.events().length === 5, 'replay');
      stream.close();
      return first.event;
    };
    const { token } = await t.loginAs('user');
    for (let i = 0; i < 30; i += 1) expect(await resume(token, uniqueClient())).toBe('ready');
    expect(await resume(token, uniqueClient())).toBe('reset');
    // A resume with nothing missed still starts where it was.
    const caughtUp = await StreamClient.open(token, { lastEventId: String(head) });
    await caughtUp.started();
    expect(caughtUp.messages[0]).toMatchObject({ event: 'ready', id: String(head) });
    caughtUp.close();

    const office = uniqueClient();
    const others = await Promise.all([1, 2, 3].map(() => t.loginAs('developer')));
    const answers: string[] = [];
    for (let i = 0; i < 61; i += 1) answers.push(await resume(others[i % 3]!.token, office));
    expect(answers.filter((event) => event === 'ready')).toHaveLength(60);
    expect(answers.at(-1)).toBe('reset');

    t.advance(60_000);
    expect(await resume(token, office)).toBe('ready');
  });

  it('opens at most 60 streams a minute for one user and 120 for one client address (429, Retry-After to the next minute)', async () => {
    await vi.waitFor(() => expect(t.events.subscribers()).toBe(0));
    /** Opens `count` streams, ten at a time (under the open caps), each closed once started. */
    const churn = async (tokens: string[], from: () => string, count: number) => {
      const answers: { status: number; retryAfter: string | null; body?: unknown }[] = [];
      for (let done = 0; done < count; done += 10) {
        const batch = Array.from({ length: Math.min(10, count - done) }, (_, i) =>
          StreamClient.open(tokens[(done + i) % tokens.length], { from: from() }),
        );
        for (const stream of await Promise.all(batch)) {
          const { ok, status, headers } = stream.response;
          if (ok) await stream.started();
          const body: unknown = ok ? undefined : await stream.response.json();
          answers.push({ status, retryAfter: headers.get('retry-after'), body });
          stream.close();
        }
        await vi.waitFor(() => expect(t.events.subscribers()).toBe(0));
      }
      return answers;
    };
    const untilNextMinute = () => Math.ceil((60_000 - (t.clock.current.getTime() % 60_000)) / 1000);

    // One account opening and closing streams from many addresses: the user's allowance.
    const { token } = await t.loginAs('user');
    const opened = await churn([token], uniqueClient, 55);
    expect(opened.map((answer) => answer.status)).toEqual(Array<number>(55).fill(200));
    // Ten at once: a burst cannot slip past the count.
    const burst = await churn([token], uniqueClient, 10);
    expect(burst.filter((answer) => answer.status === 200)).toHaveLength(5);
    const refused = burst.find((answer) => answer.status === 429);
    expect(refused!.retryAfter).toBe(String(untilNextMinute()));
    expect(refused!.body).toMatchObject({ code: 'RATE_LIMITED' });
    // Others are not held up by that account.
    const other = (await t.loginAs('user')).token;
    expect((await churn([other], uniqueClient, 1))[0]!.status).toBe(200);

    // Accounts taking turns from one address: the address's allowance, whoever asks.
    const office = uniqueClient();
    const users = await Promise.all([1, 2, 3].map(() => t.loginAs('developer')));
    const tokens = users.map((user) => user.token);
    const fromOffice = await churn(tokens, () => office, 121);
    expect(fromOffice.slice(0, 120).every((answer) => answer.status === 200)).toBe(true);
    expect(fromOffice[120]!.status).toBe(429);
    const fresh = (await t.loginAs('developer')).token;
    expect((await churn([fresh], () => office, 1))[0]!.status).toBe(429);
    expect((await churn([fresh], uniqueClient, 1))[0]!.status).toBe(200);

    // The next minute each has its allowance again.
    t.advance(untilNextMinute() * 1000);
    expect((await churn([token], () => office, 1))[0]!.status).toBe(200);
  });

  it('ends when the access token expires; that token then gets 401', async () => {
    const { token } = await t.loginAs('admin');
    const stream = await StreamClient.open(token);
    await stream.started();
    t.advance(t.config.accessTokenTtl * 1000 + 1000);
    await stream.until((c) => c.ended, 'the end of the stream', 2000);
    expect((await StreamClient.open(token)).response.status).toBe(401);
  });
});

describe('morph jobs', () => {
  it('queue entries and their progress are events, for roles that read the queue', async () => {
    await t.db.query('DELETE FROM morph_queue');
    const store = async (name: string) =>
      fileUrl(
        (
          await t.storage.put(new Blob([new Uint8Array(readAvatar(name))]).stream(), {
            maxBytes: 60 * MB,
          })
        ).key,
      );
    const source = await createAsset('outfit', await store('halfBodyAPIv2.glb'));
    const body = await createAsset('body', await store('female-animation-catwalk.glb'));
    const admin = await t.loginAs('admin');
    const user = await t.loginAs('user');
    const adminStream = await StreamClient.open(admin.token);
    const userStream = await StreamClient.open(user.token);
    await Promise.all([adminStream.started(), userStream.started()]);

    const [entry] = dataOf(
      await t.post(
        '/v1/morphed-assets/generate',
        { sourceAssetId: source, bodyAssetIds: [body] },
        admin.token,
      ),
    ) as { id: string }[];
    const worker = startMorphWorker(
      { db: t.db, storage: t.storage, now: () => new Date(t.clock.current) },
      { concurrency: 0 },
    );
    expect(await worker.runOnce()).toBe(true);
    await worker.stop();
    await adminStream.until(
      (c) => c.events().some((e) => e.data.status === 'completed'),
      'the completed entry',
    );
    const events = adminStream.events().filter((e) => e.assetId === source);
    expect(events[0]).toMatchObject({
      routingKey: 'asset.morph-queue-entry-created.v1',
      data: { queueEntryId: entry!.id, bodyAssetId: body },
    });
    const updates = events.slice(1);
    expect(updates.every((e) => e.routingKey === 'asset.morph-queue-entry-updated.v1')).toBe(true);
    expect(updates.map((e) => [e.data.status, e.data.progress])).toEqual([
      ['processing', 0],
      ['processing', 10],
      ['processing', 50],
      ['processing', 90],
      ['completed', 100],
    ]);
    const { morphedAssetId } = updates.at(-1)!.data;
    expect(updates.at(-1)!.data).toMatchObject({ queueEntryId: entry!.id, bodyAssetId: body });
    expect(updates.at(-1)!.data.error).toBeNull();
    expect(typeof morphedAssetId).toBe('string');
    expect(updates[0]!.actorId).toBeNull();

    // A user (no `read MorphedAsset`) hears of none of it; the changelog lists no progress.
    dataOf(await lock(source, admin.token));
    await userStream.eventFor('asset.locked.v1', source);
    expect(userStream.events().map((e) => e.routingKey)).toEqual(['asset.locked.v1']);
    const changelog = dataOf(
      await t.get(`/v1/assets/${source}/backoffice-changelog`, admin.token),
    ) as { routingKey: string }[];
    expect(changelog.map((e) => e.routingKey)).toEqual([
      'asset.locked.v1',
      'asset.morph-queue-entry-created.v1',
    ]);
    adminStream.close();
    userStream.close();
  });
});

describe('two servers on one PostgreSQL database', () => {
  it.runIf(onPostgres)(
    'a lost LISTEN connection is reopened and what it missed still arrives',
    async () => {
      const { token } = await t.loginAs('admin');
      const stream = await StreamClient.open(token);
      await stream.started();
      const log = captureLog();
      try {
        // Cut the bus's listening connection, then change something before it is back.
        const { rows } = await t.db.query<{ cut: boolean }>(
          `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity
         WHERE datname = current_database() AND query = 'LISTEN asset_events'`,
        );
        expect(rows.map((row) => row.cut)).toEqual([true]);
        const id = await createAsset();
        dataOf(await lock(id, (await t.loginAs('admin')).token));
        await stream.eventFor('asset.locked.v1', id);
        expect(log.text()).toMatch(/LISTEN asset_events connection lost/);
      } finally {
        log.restore();
        stream.close();
      }
    },
  );

  it.runIf(onPostgres)(
    "a change through server A reaches a stream client of server B, also one opened after a read of A's position",
    async () => {
      const testDb = await createTestDb();
      const dbB = createPgDb(testDb.url!);
      const buses: EventBus[] = [createEventBus(testDb.db), createEventBus(dbB)];
      const checks = [createSessionCheck(testDb.db), createSessionCheck(dbB)];
      const appOn = (i: 0 | 1) =>
        t.createApp({
          db: i === 0 ? testDb.db : dbB,
          events: buses[i],
          sessions: checks[i],
          config: t.config,
          mail: createDevMailbox(),
        });
      const appA = appOn(0);
      const serverB = await serveOn(appOn(1));
      try {
        await seed(testDb.db, t.config);
        const login = await appA.request('/v1/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9' },
          body: JSON.stringify(ADMIN),
        });
        const { token } = authResultSchema.parse(((await login.json()) as { data: unknown }).data);
        const stream = await StreamClient.open(token, { at: serverB.base });
        await stream.started();
        const { rows } = await testDb.db.query<{ id: string }>(
          'SELECT id FROM assets WHERE NOT locked LIMIT 1',
        );
        const id = rows[0]!.id;
        const locked = await appA.request(`/v1/assets/${id}/lock`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(locked.status).toBe(200);
        const event = await stream.eventFor('asset.locked.v1', id);
        expect(event.data).toEqual({ locked: true });
        stream.close();

        // A page read through A (no stream open there: the table names the position), a
        // change through A, then the page's stream opened on B after that position.
        const bearer = { authorization: `Bearer ${token}` };
        const read = await appA.request(`/v1/assets/${id}`, { headers: bearer });
        const position = read.headers.get('event-position');
        expect(position).toBe(String(await latestEventSeq(testDb.db)));
        const unlocked = await appA.request(`/v1/assets/${id}/unlock`, {
          method: 'PUT',
          headers: { ...bearer, 'content-type': 'application/json' },
          body: '{}',
        });
        expect(unlocked.status).toBe(200);
        const late = await StreamClient.open(token, { at: serverB.base, lastEventId: position! });
        expect((await late.eventFor('asset.locked.v1', id)).data).toEqual({ locked: false });
        late.close();
      } finally {
        await serverB.stop();
        await Promise.all([...buses, ...checks].map((closable) => closable.close()));
        await dbB.close();
        await testDb.close();
      }
    },
  );
});
