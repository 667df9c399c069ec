/**
 * What a server that is stopping (server/main.ts on SIGTERM) answers while its requests in
 * progress finish: /readyz says so at once, its open event streams end with a `retry:` hint, and
 * no new stream opens. The whole stop, as a process, is in server/main.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionCheck } from './auth/session-check';
import { createEventBus } from './event-bus';
import { STOPPING_RETRY_MS } from './event-stream';
import { createDevMailbox } from './mail';
import { useTestApp } from './test-app';

const t = useTestApp();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * An app of its own (its own bus and session check) that is told to stop when `leaving` aborts
 * and stops when `stopping` does.
 */
function stoppableApp() {
  const leaving = new AbortController();
  const stopping = new AbortController();
  const events = createEventBus(t.db);
  const sessions = createSessionCheck(t.db);
  closers.push(
    () => events.close(),
    () => sessions.close(),
  );
  const app = t.createApp({
    db: t.db,
    config: t.config,
    mail: createDevMailbox(),
    events,
    sessions,
    // The test app's clock, which its tokens were issued by.
    now: () => new Date(t.clock.current),
    leaving: leaving.signal,
    stopping: stopping.signal,
  });
  const leave = () => leaving.abort();
  return { app, events, leave, stop: () => (leave(), stopping.abort()) };
}

/** Everything a stream sends until it ends. */
async function readAll(body: ReadableStream<Uint8Array>, onFirst: () => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    if (text === '') onFirst();
    text += decoder.decode(value, { stream: true });
  }
}

describe('a server that is stopping', () => {
  it('answers /readyz 503 at once, before any check', async () => {
    const { app, stop } = stoppableApp();
    expect((await app.request('/readyz')).status).toBe(200);
    stop();
    const answer = await app.request('/readyz');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({ status: 'stopping' });
  });

  it('told to stop, answers /readyz 503 while it serves as usual, new event streams included', async () => {
    const { app, leave } = stoppableApp();
    const { token } = await t.loginAs('user');
    leave();
    const ready = await app.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'stopping' });
    const stream = await app.request('/v1/events', {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
    expect((await app.request('/healthz')).status).toBe(200);
  });

  it('ends its event streams with a retry hint, so clients resume soon on another server', async () => {
    const { app, events } = stoppableApp();
    const { token } = await t.loginAs('user');
    const answer = await app.request('/v1/events', {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    expect(answer.status).toBe(200);
    // The bus closes as the server stops.
    const text = await readAll(answer.body!, () => void events.close());
    expect(text).toMatch(/^retry: \d+\nid: \d+\nevent: ready\n/);
    const last = /\n\nretry: (\d+)\n\n$/.exec(text);
    expect(Number(last?.[1])).toBeGreaterThanOrEqual(STOPPING_RETRY_MS.min);
    expect(Number(last?.[1])).toBeLessThanOrEqual(STOPPING_RETRY_MS.max);
  });

  it('opens no new event stream: 503 with Retry-After, for the client to try another server', async () => {
    const { app, stop } = stoppableApp();
    const { token } = await t.loginAs('user');
    stop();
    const answer = await app.request('/v1/events', {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(await answer.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
