import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { configureHttp, DEFAULT_TIMEOUT_MS } from '../api/http';
import type { ListRow } from '../api/list-query';
import { jsonResponse, scriptedFetch } from '../api/testing';
import {
  AUTOCOMPLETE_DEBOUNCE_MS,
  autocompleteMachine,
  selectNoResults,
  selectOptions,
  selectSelected,
  type AutocompleteEmitted,
  type AutocompleteInput,
  type FindSelectedInput,
  type SearchInput,
} from './autocomplete.machine';

interface Call<I> {
  input: I;
  resolve: (rows: ListRow[]) => Promise<void>;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function harness(input: Partial<AutocompleteInput> = {}) {
  const searches: Call<SearchInput>[] = [];
  const lookups: Call<FindSelectedInput>[] = [];
  const fake =
    <I>(calls: Call<I>[]) =>
    ({ input: callInput }: { input: I }) =>
      new Promise<ListRow[]>((resolve) => {
        calls.push({
          input: callInput,
          resolve: async (rows) => {
            resolve(rows);
            await flush();
          },
        });
      });
  const clock = new SimulatedClock();
  const actor = createActor(
    autocompleteMachine.provide({
      actors: {
        search: fromPromise(fake<SearchInput>(searches)),
        findSelected: fromPromise(fake<FindSelectedInput>(lookups)),
      },
    }),
    { input: { endpoint: 'v1/tags', ...input }, clock },
  );
  const emitted: AutocompleteEmitted[] = [];
  actor.on('VALUE_CHANGED', (event) => emitted.push(event));
  actor.start();
  return { actor, clock, searches, lookups, emitted, snapshot: () => actor.getSnapshot() };
}

const tag = (id: string, name: string) => ({ id, name, title: `Title ${name}` });

afterEach(() => {
  vi.restoreAllMocks();
  configureHttp({ timeoutMs: DEFAULT_TIMEOUT_MS, fetch: globalThis.fetch });
});

describe('autocomplete machine', () => {
  it('searches 150 ms after the last keystroke with the search field, extra params and limit 5', () => {
    const h = harness({ searchField: 'q', extraQueryParams: { status: 'active' } });
    h.actor.send({ type: 'TYPE', text: 'h' });
    h.clock.increment(100);
    h.actor.send({ type: 'TYPE', text: 'ha' });
    h.clock.increment(AUTOCOMPLETE_DEBOUNCE_MS - 1);
    expect(h.searches).toEqual([]);
    h.clock.increment(1);
    expect(h.searches.map((call) => call.input)).toEqual([
      { endpoint: 'v1/tags', query: { limit: 5, filter: { q: 'ha', status: 'active' } } },
    ]);
  });

  it('labels options by displayField, shows only the newest answer, and flags No Results', async () => {
    const h = harness({ displayField: 'title' });
    h.actor.send({ type: 'TYPE', text: 'h' });
    h.clock.increment(AUTOCOMPLETE_DEBOUNCE_MS);
    h.actor.send({ type: 'TYPE', text: 'hair' });
    h.clock.increment(AUTOCOMPLETE_DEBOUNCE_MS);
    expect(h.searches[1]?.input.query.filter).toEqual({ search: 'hair' });
    await h.searches[1]?.resolve([tag('t1', 'Hair')]);
    await h.searches[0]?.resolve([tag('t9', 'Hat')]);
    expect(selectOptions(h.snapshot())).toEqual([{ value: 't1', label: 'Title Hair' }]);
    expect(selectNoResults(h.snapshot())).toBe(false);
    h.actor.send({ type: 'TYPE', text: 'zzz' });
    h.clock.increment(AUTOCOMPLETE_DEBOUNCE_MS);
    await h.searches[2]?.resolve([]);
    expect(selectNoResults(h.snapshot())).toBe(true);
  });

  it('looks up the selected ids on start and shows their labels', async () => {
    const h = harness({ multiple: true, value: ['t1', 't2'] });
    expect(h.lookups.map((call) => call.input)).toEqual([
      { endpoint: 'v1/tags', ids: ['t1', 't2'] },
    ]);
    expect(selectSelected(h.snapshot())).toEqual([
      { value: 't1', label: 't1' },
      { value: 't2', label: 't2' },
    ]);
    await h.lookups[0]?.resolve([tag('t2', 'Top'), tag('t1', 'Hair')]);
    expect(selectSelected(h.snapshot())).toEqual([
      { value: 't1', label: 'Hair' },
      { value: 't2', label: 'Top' },
    ]);
  });

  it('warns and wraps a non-array initial value of a multiple autocomplete', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const h = harness({ multiple: true, value: 't1', findByIdEndpoint: 'v1/tags/by-id' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(h.lookups[0]?.input).toEqual({ endpoint: 'v1/tags/by-id', ids: ['t1'] });
  });

  it('does not look anything up without a value', () => {
    expect(harness({ value: null }).lookups).toEqual([]);
  });

  it('emits the new filter value on select, remove and clear', () => {
    const multiple = harness({ multiple: true });
    multiple.actor.send({ type: 'SELECT', option: { value: 't1', label: 'Hair' } });
    multiple.actor.send({ type: 'SELECT', option: { value: 't2', label: 'Top' } });
    multiple.actor.send({ type: 'SELECT', option: { value: 't1', label: 'Hair' } });
    multiple.actor.send({ type: 'REMOVE', value: 't1' });
    multiple.actor.send({ type: 'CLEAR' });
    expect(multiple.emitted.map((event) => event.value)).toEqual([
      ['t1'],
      ['t1', 't2'],
      ['t1', 't2'],
      ['t2'],
      [],
    ]);
    const single = harness();
    single.actor.send({ type: 'SELECT', option: { value: 't1', label: 'Hair' } });
    single.actor.send({ type: 'SELECT', option: { value: 't2', label: 'Top' } });
    single.actor.send({ type: 'CLEAR' });
    expect(single.emitted.map((event) => event.value)).toEqual(['t1', 't2', null]);
  });

  it('looks labels up again when the value is set from outside', async () => {
    const h = harness();
    h.actor.send({ type: 'TYPE', text: 'sh' });
    h.actor.send({ type: 'SET_VALUE', value: 't3' });
    expect(h.lookups.map((call) => call.input.ids)).toEqual([['t3']]);
    // The search being typed carries on.
    h.clock.increment(AUTOCOMPLETE_DEBOUNCE_MS);
    expect(h.searches).toHaveLength(1);
    await h.lookups[0]?.resolve([tag('t3', 'Shoes')]);
    expect(selectSelected(h.snapshot())).toEqual([{ value: 't3', label: 'Shoes' }]);
  });

  it('calls the real endpoints by default: the list search and one find-by-id per id', async () => {
    const api = scriptedFetch({
      'GET v1/tags/t1': () => jsonResponse(200, { data: tag('t1', 'Hair') }),
      'GET v1/tags?limit=5&search=ha': () =>
        jsonResponse(200, {
          data: [tag('t1', 'Hair')],
          pagination: { page: 1, limit: 5, totalDocs: 1, totalPages: 1, hasNextPage: false },
        }),
    });
    configureHttp({ baseUrl: 'http://api.test/', fetch: api.fetch });
    const clock = new SimulatedClock();
    const actor = createActor(autocompleteMachine, {
      input: { endpoint: 'v1/tags', value: 't1' },
      clock,
    }).start();
    await vi.waitFor(() => expect(selectSelected(actor.getSnapshot())[0]?.label).toBe('Hair'));
    actor.send({ type: 'TYPE', text: 'ha' });
    clock.increment(AUTOCOMPLETE_DEBOUNCE_MS);
    await vi.waitFor(() => expect(selectOptions(actor.getSnapshot())).toHaveLength(1));
    expect(api.calls.map((call) => call.path)).toEqual(['v1/tags/t1', 'v1/tags?limit=5&search=ha']);
    actor.stop();
  });
});
