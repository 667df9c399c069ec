import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup } from 'xstate';
import { ApiError } from '../api/errors';
import { createInspectionStore, formatStateValue, REDACTED, sanitize } from './inspection';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSIsInJvbGUiOiJhZG1pbiJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

describe('sanitize', () => {
  it('redacts tokens, passwords, codes and secrets at any depth, keeping absent ones visible', () => {
    expect(
      sanitize({
        type: 'LOGIN',
        email: 'ada@example.com',
        password: 'hunter2',
        code: '123456',
        data: { token: 'abc', refreshToken: 'opaque-refresh', accessToken: null, _id: 'u1' },
        settings: { isPasswordUpdated: true },
        headers: { Authorization: 'Bearer abc', clientSecret: 's' },
        list: [{ newPassword: 'x', otp: '999' }],
      }),
    ).toEqual({
      type: 'LOGIN',
      email: 'ada@example.com',
      password: REDACTED,
      code: REDACTED,
      data: { token: REDACTED, refreshToken: REDACTED, accessToken: null, _id: 'u1' },
      settings: { isPasswordUpdated: true },
      headers: { Authorization: REDACTED, clientSecret: REDACTED },
      list: [{ newPassword: REDACTED, otp: REDACTED }],
    });
  });

  it('keeps error identifiers readable but not one-time codes', () => {
    expect(sanitize({ error: { status: 403, code: 'USER_NOT_VERIFIED' } })).toEqual({
      error: { status: 403, code: 'USER_NOT_VERIFIED' },
    });
    expect(sanitize({ code: '042917' })).toEqual({ code: REDACTED });
  });

  it('redacts JWTs inside any string, whatever the key', () => {
    expect(sanitize({ record: `{"data":{"t":"${JWT}"}}`, note: JWT })).toEqual({
      record: `{"data":{"t":"${REDACTED}"}}`,
      note: REDACTED,
    });
  });

  it('turns errors, dates, files, actors and class instances into readable JSON', () => {
    const actor = createActor(setup({}).createMachine({ id: 'child' }), { id: 'kid' });
    class Mesh {}
    const value = sanitize({
      error: new ApiError({ status: 401, code: 'INVALID_CREDENTIALS', message: 'Wrong' }),
      at: new Date(Date.UTC(2025, 0, 2)),
      file: new File(['abc'], 'me.glb', { type: 'model/gltf-binary' }),
      actor,
      mesh: new Mesh(),
      bytes: new Uint8Array(4),
      tags: new Set(['a']),
      fn: function named() {},
    });
    expect(value).toEqual({
      error: expect.objectContaining({
        name: 'ApiError',
        message: 'Wrong',
        status: 401,
        code: 'INVALID_CREDENTIALS',
      }) as unknown,
      at: '2025-01-02T00:00:00.000Z',
      file: '[File me.glb, 3 bytes, model/gltf-binary]',
      actor: '[actor kid]',
      mesh: '[Mesh]',
      bytes: '[Uint8Array 4 bytes]',
      tags: ['a'],
      fn: '[function named]',
    });
    expect(() => JSON.stringify(value)).not.toThrow();
  });

  it('cuts cycles, depth, long arrays and long strings', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const shared = { id: 1 };
    expect(sanitize({ cyclic, a: shared, b: shared })).toEqual({
      cyclic: { name: 'loop', self: '[circular]' },
      a: { id: 1 },
      b: { id: 1 },
    });
    expect(sanitize({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toEqual({ a: { b: '[…]' } });
    expect(sanitize([1, 2, 3, 4], { maxItems: 2 })).toEqual([1, 2, '… 2 more']);
    expect(sanitize('x'.repeat(12), { maxString: 5 })).toBe('xxxxx… (12 chars)');
  });
});

describe('formatStateValue', () => {
  it('spells nested and parallel state values as dotted paths', () => {
    expect(formatStateValue('idle')).toBe('idle');
    expect(formatStateValue({ authenticating: 'login' })).toBe('authenticating.login');
    expect(formatStateValue({ spawning: { effect: 'playing', animation: 'done' } })).toBe(
      'spawning.effect.playing, spawning.animation.done',
    );
  });
});

describe('inspection store', () => {
  const machine = setup({
    types: {
      context: {} as { token: string | null },
      events: {} as { type: 'GO'; password: string },
    },
    actors: { work: fromPromise(() => Promise.resolve({ token: 'secret-token' })) },
  }).createMachine({
    id: 'demo',
    context: { token: null },
    initial: 'idle',
    states: {
      idle: { on: { GO: 'working' } },
      working: {
        invoke: {
          src: 'work',
          onDone: {
            target: 'done',
            actions: assign({ token: ({ event }) => event.output.token }),
          },
        },
      },
      done: {},
    },
  });

  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('lists live actors with their state and sanitised context, and the events they receive', async () => {
    let time = 1000;
    const store = createInspectionStore({ now: () => time++ });
    let notified = 0;
    store.subscribe(() => notified++);
    const actor = createActor(machine, { inspect: store.observer }).start();
    actor.send({ type: 'GO', password: 'hunter2' });
    expect(store.getState().actors.map((a) => [a.machineId, a.value])).toEqual([
      ['demo', 'working'],
      ['work', null],
    ]);
    await flush();
    expect(notified).toBeGreaterThan(0);
    const { actors, events } = store.getState();
    expect(actors).toEqual([
      {
        sessionId: actor.sessionId,
        id: actor.sessionId,
        machineId: 'demo',
        parentId: null,
        value: 'done',
        context: { token: REDACTED },
      },
    ]);
    const go = events.find((event) => event.type === 'GO');
    expect(go).toMatchObject({
      source: null,
      target: { sessionId: actor.sessionId, machineId: 'demo' },
      payload: { password: REDACTED },
      stateAfter: 'working',
    });
    const done = events.find((event) => event.type.startsWith('xstate.done.actor'));
    expect(done).toMatchObject({
      source: { machineId: 'work' },
      payload: { output: { token: REDACTED } },
      stateAfter: 'done',
    });
    expect(JSON.stringify(store.getState())).not.toContain('secret-token');
    expect(JSON.stringify(store.getState())).not.toContain('hunter2');
    actor.stop();
    expect(store.getState().actors).toEqual([]);
  });

  it('keeps only the newest events', () => {
    const store = createInspectionStore({ limit: 3 });
    const actor = createActor(machine, { inspect: store.observer }).start();
    for (let i = 0; i < 5; i++) actor.send({ type: 'GO', password: `p${i}` });
    const { events } = store.getState();
    // xstate.init (machine), GO, xstate.init (invoked work), then four ignored GOs.
    expect(events.map((event) => [event.seq, event.type])).toEqual([
      [5, 'GO'],
      [6, 'GO'],
      [7, 'GO'],
    ]);
    actor.stop();
  });

  it('notifies once per batch, never in the middle of a transition', () => {
    const batches: (() => void)[] = [];
    const store = createInspectionStore({ schedule: (notify) => batches.push(notify) });
    let notified = 0;
    store.subscribe(() => notified++);
    const actor = createActor(machine, { inspect: store.observer }).start();
    actor.send({ type: 'GO', password: 'x' });
    expect(notified).toBe(0);
    expect(batches).toHaveLength(1);
    batches[0]?.();
    expect(notified).toBe(1);
    actor.stop();
  });
});
