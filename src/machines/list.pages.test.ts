/**
 * The list machine on the app's query cache: the pages it shows are observed there,
 * so an invalidation reads them again while they are on screen, a failed read in the background
 * leaves them be, and lists showing the same page share its request. Requests go through the
 * real list client to a fake API; the debounce runs on a simulated clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock, type Actor } from 'xstate';
import { configureHttp, DEFAULT_TIMEOUT_MS } from '../api/http';
import { invalidateLists } from '../api/lists';
import { queryClient } from '../api/query';
import { jsonResponse } from '../api/testing';
import {
  listMachine,
  selectError,
  selectRows,
  selectStatus,
  type ListMachine,
} from './list.machine';

/** A list API with two rows on `v1/rows` that a test may rename, or make fail (400, not retried). */
function fakeApi() {
  const api = {
    rows: [
      { id: 'a', name: 'Alpha' },
      { id: 'b', name: 'Beta' },
    ],
    failing: false,
    /** Pages asked for, in order. */
    calls: [] as string[],
  };
  configureHttp({
    baseUrl: 'http://api.test/',
    fetch: (input, init) => {
      const url = new URL((input instanceof Request ? input : new Request(input, init)).url);
      api.calls.push(url.searchParams.get('page') ?? '');
      if (api.failing) {
        return Promise.resolve(jsonResponse(400, { status: 400, code: 'BAD', message: 'No' }));
      }
      const pagination = { page: 1, limit: 10, totalDocs: 2, totalPages: 1, hasNextPage: false };
      return Promise.resolve(jsonResponse(200, { data: api.rows, pagination }));
    },
  });
  return api;
}

const clock = new SimulatedClock();
const actors: Actor<ListMachine>[] = [];

/** A list of `v1/rows` on screen once its first read has answered. */
async function shownList() {
  const actor = createActor(listMachine, { input: { endpoint: 'v1/rows' }, clock }).start();
  actors.push(actor);
  clock.increment(250);
  await vi.waitFor(() => expect(selectStatus(actor.getSnapshot())).toBe('success'));
  return actor;
}

const names = (actor: Actor<ListMachine>) =>
  selectRows(actor.getSnapshot()).map((row) => (row as { name?: string }).name);

/** Every load state the list passes through from now on. */
function statusesOf(actor: Actor<ListMachine>) {
  const seen = new Set<string>();
  actor.subscribe((snapshot) => seen.add(selectStatus(snapshot)));
  return seen;
}

beforeEach(() => {
  queryClient.clear();
});

afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
  configureHttp({ timeoutMs: DEFAULT_TIMEOUT_MS, fetch: globalThis.fetch });
});

describe('a list on the query cache', () => {
  it('reads the page on screen again when the list is invalidated: rows change in place, no loading state', async () => {
    const api = fakeApi();
    const list = await shownList();
    expect(names(list)).toEqual(['Alpha', 'Beta']);
    const statuses = statusesOf(list);
    api.rows = [{ id: 'a', name: 'Alpha 2' }, api.rows[1]!];
    // A change awaits its invalidation: once it settles, the page on screen has been read.
    await invalidateLists((endpoint) => endpoint === 'v1/rows');
    expect(api.calls).toEqual(['1', '1']);
    await vi.waitFor(() => expect(names(list)).toEqual(['Alpha 2', 'Beta']));
    expect([...statuses]).toEqual(['success']);
  });

  it('keeps the rows on screen, without an error, when a read in the background fails', async () => {
    const api = fakeApi();
    const list = await shownList();
    const statuses = statusesOf(list);
    api.failing = true;
    await invalidateLists(() => true);
    expect(api.calls).toEqual(['1', '1']);
    expect(names(list)).toEqual(['Alpha', 'Beta']);
    expect(selectError(list.getSnapshot())).toBeNull();
    expect([...statuses]).toEqual(['success']);
    // The next read that works brings the changes.
    api.failing = false;
    api.rows = [api.rows[1]!];
    await invalidateLists(() => true);
    await vi.waitFor(() => expect(names(list)).toEqual(['Beta']));
    expect([...statuses]).toEqual(['success']);
  });

  it('two lists showing the same page share one request, and one read again', async () => {
    const api = fakeApi();
    const lists = [
      createActor(listMachine, { input: { endpoint: 'v1/rows' }, clock }).start(),
      createActor(listMachine, { input: { endpoint: 'v1/rows' }, clock }).start(),
    ];
    actors.push(...lists);
    clock.increment(250);
    for (const list of lists) {
      await vi.waitFor(() => expect(selectStatus(list.getSnapshot())).toBe('success'));
    }
    expect(api.calls).toEqual(['1']);
    api.rows = [{ id: 'a', name: 'Alpha 2' }, api.rows[1]!];
    await invalidateLists(() => true);
    expect(api.calls).toEqual(['1', '1']);
    for (const list of lists) {
      await vi.waitFor(() => expect(names(list)).toEqual(['Alpha 2', 'Beta']));
    }
  });

  it('a list opened again within the stale time shows its page from the cache, without a request', async () => {
    const api = fakeApi();
    const first = await shownList();
    first.stop();
    const again = await shownList();
    expect(names(again)).toEqual(['Alpha', 'Beta']);
    expect(api.calls).toEqual(['1']);
    // Refresh reads it from the server all the same.
    again.send({ type: 'REFRESH' });
    clock.increment(250);
    await vi.waitFor(() => expect(selectStatus(again.getSnapshot())).toBe('success'));
    expect(api.calls).toEqual(['1', '1']);
  });
});
