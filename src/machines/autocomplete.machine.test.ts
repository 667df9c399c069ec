import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, setup, SimulatedClock } from 'xstate';
import { configureHttp, DEFAULT_TIMEOUT_MS } from '../api/http';
import type { ListRow } from '../../contract/list-query';
import { jsonResponse, scriptedFetch } from '../api/testing';
import {
  autocompleteMachine,
  selectHasMore,
  selectIsLabelling,
  selectNoResults,
  selectOptions,
  selectSelected,
  type AutocompleteEmitted,
  type AutocompleteInput,
  type FindSelectedInput,
  type SearchInput,
} from './autocomplete.machine';
import { describeMachinePaths, pathSuite, type PathTools } from './testing/path-tests';

interface Call<I> {
  input: I;
  signal: AbortSignal;
  settled: boolean;
  resolve: (rows: ListRow[]) => Promise<void>;
  reject: (error: Error) => Promise<void>;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function harness(
  input: Partial<AutocompleteInput> = {},
  { inspect, clock = new SimulatedClock() }: Partial<PathTools> = {},
) {
  const searches: Call<SearchInput>[] = [];
  const lookups: Call<FindSelectedInput>[] = [];
  const fake =
    <I>(calls: Call<I>[]) =>
    ({ input: callInput, signal }: { input: I; signal: AbortSignal }) =>
      new Promise<ListRow[]>((resolve, reject) => {
        const call: Call<I> = {
          input: callInput,
          signal,
          settled: false,
          resolve: async (rows) => {
            call.settled = true;
            resolve(rows);
            await flush();
          },
          reject: async (error) => {
            call.settled = true;
            reject(error);
            await flush();
          },
        };
        calls.push(call);
      });
  const actor = createActor(
    autocompleteMachine.provide({
      actors: {
        search: fromPromise(fake<SearchInput>(searches)),
        findSelected: fromPromise(fake<FindSelectedInput>(lookups)),
      },
    }),
    { input: { endpoint: 'v1/tags', ...input }, clock, inspect },
  );
  const emitted: AutocompleteEmitted[] = [];
  actor.on('VALUE_CHANGED', (event) => emitted.push(event));
  actor.start();
  return { actor, clock, searches, lookups, emitted, snapshot: () => actor.getSnapshot() };
}

const tag = (id: string, name: string) => ({ id, name, title: `Title ${name}` });
const FIVE = ['Hair', 'Hat', 'Head', 'Hood', 'Horn'].map((name, i) => tag(`f${i}`, name));
const SIXTH = tag('f5', 'Hull');
const asOption = (row: { id: string; name: string }) => ({ value: row.id, label: row.name });

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
    h.clock.increment(149);
    expect(h.searches).toEqual([]);
    h.clock.increment(1);
    expect(h.searches.map((call) => call.input)).toEqual([
      { endpoint: 'v1/tags', query: { limit: 5, filter: { q: 'ha', status: 'active' } } },
    ]);
  });

  it('labels options by displayField, shows only the newest answer, and flags No Results', async () => {
    const h = harness({ displayField: 'title' });
    h.actor.send({ type: 'TYPE', text: 'h' });
    h.clock.increment(150);
    h.actor.send({ type: 'TYPE', text: 'hair' });
    h.clock.increment(150);
    expect(h.searches[1]?.input.query.filter).toEqual({ search: 'hair' });
    await h.searches[1]?.resolve([tag('t1', 'Hair')]);
    await h.searches[0]?.resolve([tag('t9', 'Hat')]);
    expect(selectOptions(h.snapshot())).toEqual([{ value: 't1', label: 'Title Hair' }]);
    expect(selectNoResults(h.snapshot())).toBe(false);
    h.actor.send({ type: 'TYPE', text: 'zzz' });
    h.clock.increment(150);
    await h.searches[2]?.resolve([]);
    expect(selectNoResults(h.snapshot())).toBe(true);
  });

  it('shows only the options that contain a new text until its answer comes', async () => {
    const h = harness();
    h.actor.send({ type: 'TYPE', text: 'h' });
    h.clock.increment(150);
    await h.searches[0]?.resolve(FIVE);
    h.actor.send({ type: 'TYPE', text: 'HA' });
    expect(selectOptions(h.snapshot())).toEqual([asOption(FIVE[0]!), asOption(FIVE[1]!)]);
    h.clock.increment(150);
    await h.searches[1]?.resolve([FIVE[1]!, tag('f7', 'Chai')]);
    expect(selectOptions(h.snapshot())).toEqual([asOption(FIVE[1]!), asOption(tag('f7', 'Chai'))]);
    h.actor.send({ type: 'TYPE', text: '' });
    expect(selectOptions(h.snapshot())).toHaveLength(2);
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

  it('is busy labelling until the lookup answers, and looks up only the labels not given', async () => {
    const h = harness({ multiple: true, value: ['t1', 't2'], labels: { t1: 'Hair' } });
    expect(selectIsLabelling(h.snapshot())).toBe(true);
    expect(h.lookups.map((call) => call.input.ids)).toEqual([['t2']]);
    expect(selectSelected(h.snapshot())).toEqual([
      { value: 't1', label: 'Hair' },
      { value: 't2', label: 't2' },
    ]);
    await h.lookups[0]?.resolve([tag('t2', 'Top')]);
    expect(selectIsLabelling(h.snapshot())).toBe(false);
    expect(selectSelected(h.snapshot())).toEqual([
      { value: 't1', label: 'Hair' },
      { value: 't2', label: 'Top' },
    ]);
    // Every label known, on start or set from outside: nothing to look up, nothing busy.
    const known = harness({ value: 't3', labels: { t3: 'Shoes' } });
    expect(known.lookups).toEqual([]);
    expect(selectIsLabelling(known.snapshot())).toBe(false);
    expect(known.snapshot().context.text).toBe('Shoes');
    known.actor.send({ type: 'SET_VALUE', value: 't4', labels: { t4: 'Boots' } });
    expect(known.lookups).toEqual([]);
    expect(known.snapshot().context.text).toBe('Boots');
    known.actor.send({ type: 'SET_VALUE', value: 't5', labels: { t4: 'Boots' } });
    expect(known.lookups.map((call) => call.input.ids)).toEqual([['t5']]);
    expect(selectIsLabelling(known.snapshot())).toBe(true);
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

  it('a single pick shows the chosen label, not the fragment typed to find it', async () => {
    const h = harness();
    h.actor.send({ type: 'TYPE', text: 'Vin' });
    h.clock.increment(150);
    await h.searches[0]?.resolve([tag('t1', 'Vintage jacket')]);
    h.actor.send({ type: 'SELECT', option: { value: 't1', label: 'Vintage jacket' } });
    expect(h.snapshot().context.text).toBe('Vintage jacket');
    // Removing the value empties the field.
    h.actor.send({ type: 'REMOVE', value: 't1' });
    expect(h.snapshot().context.text).toBe('');
  });

  it('a single value given from outside shows its label once looked up, and empties on Clear', async () => {
    const h = harness({ value: 't3' });
    await h.lookups[0]?.resolve([tag('t3', 'Shoes')]);
    expect(h.snapshot().context.text).toBe('Shoes');
    h.actor.send({ type: 'SET_VALUE', value: null });
    expect(h.snapshot().context.text).toBe('');
    // A multiple picker keeps its typed text: the chosen values show as chips.
    const multiple = harness({ multiple: true });
    multiple.actor.send({ type: 'TYPE', text: 'ha' });
    multiple.actor.send({ type: 'SELECT', option: { value: 't1', label: 'Hair' } });
    expect(multiple.snapshot().context.text).toBe('ha');
  });

  it('looks labels up again when the value is set from outside', async () => {
    const h = harness();
    h.actor.send({ type: 'TYPE', text: 'sh' });
    h.actor.send({ type: 'SET_VALUE', value: 't3' });
    expect(h.lookups.map((call) => call.input.ids)).toEqual([['t3']]);
    // The search being typed carries on.
    h.clock.increment(150);
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
    clock.increment(150);
    await vi.waitFor(() => expect(selectOptions(actor.getSnapshot())).toHaveLength(1));
    expect(api.calls.map((call) => call.path)).toEqual(['v1/tags/t1', 'v1/tags?limit=5&search=ha']);
    actor.stop();
  });
});

// ---------------------------------------------------------------- model-based paths

/** The tags the fake server knows; `t2` is only ever picked from the options. */
const NAMES: Record<string, string> = { t1: 'Hair', t3: 'Shoes' };
const TOP = { value: 't2', label: 'Top' };

interface SelectionContext {
  /** Selected ids, in order (a multiple autocomplete). */
  selected: string[];
  /** Ids whose label the find-by-id answer brought. */
  labelled: string[];
  /** The ids of the lookup in flight. */
  lookingUp: string[];
  /** The form has handed the field's own value back once. */
  echoed: boolean;
}

type SelectionEvent = {
  type:
    | 'SELECT_TOP'
    | 'REMOVE_T1'
    | 'CLEAR'
    | 'SET_VALUE_T3'
    | 'SET_VALUE_NONE'
    | 'SET_VALUE_SAME'
    | 'LOOKUP_OK'
    | 'LOOKUP_FAIL';
};

/**
 * Spec §4 "Autocomplete filter", the value: the labels of the initial value (`t1`) are looked
 * up; selections change the value at any time, a value set from outside is looked up again.
 * The search runs in its own region of the machine and has a model of its own below.
 */
const selectionModel = setup({
  types: { context: {} as SelectionContext, events: {} as SelectionEvent },
}).createMachine({
  id: 'selectionModel',
  context: { selected: ['t1'], labelled: [], lookingUp: ['t1'], echoed: false },
  initial: 'resolving',
  on: {
    SELECT_TOP: {
      guard: ({ context }) => !context.selected.includes('t2'),
      actions: assign({ selected: ({ context }) => [...context.selected, 't2'] }),
    },
    REMOVE_T1: {
      guard: ({ context }) => context.selected.includes('t1'),
      actions: assign({ selected: ({ context }) => context.selected.filter((id) => id !== 't1') }),
    },
    CLEAR: {
      guard: ({ context }) => context.selected.length > 0,
      actions: assign({ selected: [] }),
    },
    SET_VALUE_T3: {
      guard: ({ context }) => context.selected.join() !== 't3',
      target: '.resolving',
      actions: assign({ selected: ['t3'], labelled: [], lookingUp: ['t3'] }),
    },
    SET_VALUE_NONE: {
      guard: ({ context }) => context.selected.length > 0,
      target: '.ready',
      actions: assign({ selected: [], labelled: [], lookingUp: [] }),
    },
    // The value the field holds, handed back by its form: nothing changes, nothing is asked.
    // (Once per path: the flag only makes the model's state differ, so paths include it.)
    SET_VALUE_SAME: {
      guard: ({ context }) => !context.echoed && context.lookingUp.length === 0,
      actions: assign({ echoed: true }),
    },
  },
  states: {
    resolving: {
      on: {
        LOOKUP_OK: {
          target: 'ready',
          actions: assign({ labelled: ({ context }) => context.lookingUp, lookingUp: [] }),
        },
        LOOKUP_FAIL: { target: 'ready', actions: assign({ lookingUp: [] }) },
      },
    },
    ready: {},
  },
});

interface SearchContext {
  text: string;
  /** The text the options shown answer; null before any answer. */
  searched: string | null;
  shown: 'none' | 'hair' | 'five' | 'six';
  noResults: boolean;
  hasMore: boolean;
  error: boolean;
}

type SearchEvent = {
  type:
    | 'TYPE'
    | 'TICK'
    | 'OPEN'
    | 'ANSWER'
    | 'ANSWER_EMPTY'
    | 'ANSWER_FULL'
    | 'FAIL'
    | 'LOAD_MORE'
    | 'MORE'
    | 'MORE_FAIL';
};

/** A first page answered: its options replace the ones shown, and any error goes. */
const answered = (shown: SearchContext['shown']) =>
  assign<SearchContext, SearchEvent, undefined, SearchEvent, never>({
    shown,
    noResults: shown === 'none',
    hasMore: shown === 'five',
    error: false,
    searched: ({ context }) => context.text,
  });
/** A failure keeps what is shown and reports the error. */
const failed = assign<SearchContext, SearchEvent, undefined, SearchEvent, never>({ error: true });

/**
 * Spec §4 "Autocomplete filter", the search: 150 ms after the last keystroke the options are
 * read. Typing is modelled twice at most ("h", then "ha"), enough to supersede a search.
 * Opening the list reads the options for the text at once unless they are shown already; a
 * full page (5) offers the next one when the end of the list comes into view.
 */
const searchModel = setup({
  types: { context: {} as SearchContext, events: {} as SearchEvent },
}).createMachine({
  id: 'searchModel',
  context: {
    text: '',
    searched: null,
    shown: 'none',
    noResults: false,
    hasMore: false,
    error: false,
  },
  initial: 'idle',
  on: {
    TYPE: {
      guard: ({ context }) => context.text.length < 2,
      target: '.debouncing',
      actions: assign({ text: ({ context }) => (context.text ? 'ha' : 'h') }),
    },
  },
  states: {
    idle: {
      on: {
        OPEN: { guard: ({ context }) => context.searched !== context.text, target: 'searching' },
        LOAD_MORE: { guard: ({ context }) => context.hasMore, target: 'loadingMore' },
      },
    },
    debouncing: { on: { TICK: 'searching' } },
    searching: {
      on: {
        ANSWER: { target: 'idle', actions: answered('hair') },
        ANSWER_EMPTY: { target: 'idle', actions: answered('none') },
        ANSWER_FULL: { target: 'idle', actions: answered('five') },
        // The options shown before stay; the error is reported.
        FAIL: { target: 'idle', actions: failed },
      },
    },
    // The five options stay on screen while the next page is read, and after it fails.
    loadingMore: {
      on: {
        MORE: {
          target: 'idle',
          actions: assign({ shown: 'six', hasMore: false, error: false }),
        },
        MORE_FAIL: { target: 'idle', actions: failed },
      },
    },
  },
});

type Harness = ReturnType<typeof harness>;
type Step<C> = { state: { context: C } };

const live = <I>(calls: Call<I>[]) => calls.filter((call) => !call.settled && !call.signal.aborted);

const only = <I>(calls: Call<I>[]) => {
  const inFlight = live(calls);
  expect(inFlight).toHaveLength(1);
  return inFlight[0] as Call<I>;
};

function selectionChecks(h: Harness) {
  const selection = ({ context: m }: { context: SelectionContext }) =>
    expect(selectSelected(h.snapshot())).toEqual(
      m.selected.map((id) =>
        id === 't2' ? TOP : { value: id, label: m.labelled.includes(id) ? NAMES[id] : id },
      ),
    );
  return {
    resolving: (state: { context: SelectionContext }) => {
      selection(state);
      expect(only(h.lookups).input.ids).toEqual(state.context.lookingUp);
    },
    ready: (state: { context: SelectionContext }) => {
      selection(state);
      expect(live(h.lookups)).toEqual([]);
    },
  };
}

function selectionEvents(h: Harness) {
  /** A selection change emits the new value at once. */
  const change = (event: Parameters<Harness['actor']['send']>[0]) => () => {
    h.actor.send(event);
    const ids = selectSelected(h.snapshot()).map((option) => option.value);
    expect(h.emitted.at(-1)).toEqual({ type: 'VALUE_CHANGED', value: ids });
  };
  return {
    SELECT_TOP: change({ type: 'SELECT', option: TOP }),
    REMOVE_T1: change({ type: 'REMOVE', value: 't1' }),
    CLEAR: change({ type: 'CLEAR' }),
    SET_VALUE_T3: () => h.actor.send({ type: 'SET_VALUE', value: ['t3'] }),
    SET_VALUE_NONE: () => h.actor.send({ type: 'SET_VALUE', value: [] }),
    SET_VALUE_SAME: () =>
      h.actor.send({
        type: 'SET_VALUE',
        value: selectSelected(h.snapshot()).map((option) => option.value),
      }),
    LOOKUP_OK: () => {
      const call = only(h.lookups);
      return call.resolve(call.input.ids.map((id) => tag(id, NAMES[id] ?? id)));
    },
    LOOKUP_FAIL: () => only(h.lookups).reject(new Error('offline')),
  };
}

function searchChecks(h: Harness) {
  const shown = ({ context: m }: { context: SearchContext }) => {
    expect(h.snapshot().context.text).toBe(m.text);
    const answer = {
      none: [],
      hair: [{ value: 't1', label: 'Hair' }],
      five: FIVE.map(asOption),
      six: [...FIVE, SIXTH].map(asOption),
    }[m.shown];
    // Until the text's own answer comes, only the options that contain it.
    expect(selectOptions(h.snapshot())).toEqual(
      m.searched === null || m.searched === m.text
        ? answer
        : answer.filter((option) => option.label.toLowerCase().includes(m.text)),
    );
    expect(selectNoResults(h.snapshot())).toBe(m.noResults);
    expect(selectHasMore(h.snapshot())).toBe(m.hasMore);
    expect(h.snapshot().context.error !== null).toBe(m.error);
  };
  return {
    idle: (state: { context: SearchContext }) => {
      shown(state);
      expect(live(h.searches)).toEqual([]);
    },
    // Debounced: nothing is asked until the text has been still for 150 ms.
    debouncing: () => expect(live(h.searches)).toEqual([]),
    searching: ({ context: m }: { context: SearchContext }) =>
      expect(only(h.searches).input.query).toEqual({ limit: 5, filter: { search: m.text } }),
    loadingMore: ({ context: m }: { context: SearchContext }) => {
      expect(only(h.searches).input.query).toEqual({
        page: 2,
        limit: 5,
        filter: { search: m.text },
      });
      expect(h.snapshot().context.options).toHaveLength(5);
    },
  };
}

function searchEvents(h: Harness) {
  return {
    TYPE: ({ state }: Step<SearchContext>) =>
      h.actor.send({ type: 'TYPE', text: state.context.text }),
    TICK: () => h.clock.increment(150),
    ANSWER: () => only(h.searches).resolve([tag('t1', 'Hair')]),
    ANSWER_EMPTY: () => only(h.searches).resolve([]),
    ANSWER_FULL: () => only(h.searches).resolve(FIVE),
    FAIL: () => only(h.searches).reject(new Error('offline')),
    OPEN: () => h.actor.send({ type: 'OPEN' }),
    LOAD_MORE: () => h.actor.send({ type: 'LOAD_MORE' }),
    // The next page repeats a row the first had (rows moved meanwhile): it is shown once.
    MORE: () => only(h.searches).resolve([FIVE[4]!, SIXTH]),
    MORE_FAIL: () => only(h.searches).reject(new Error('offline')),
  };
}

describeMachinePaths(autocompleteMachine, {
  suites: [
    pathSuite({
      name: 'the value (spec §4 model)',
      model: selectionModel,
      system: (tools) => {
        const h = harness({ multiple: true, value: ['t1'] }, tools);
        return { actor: h.actor, states: selectionChecks(h), events: selectionEvents(h) };
      },
    }),
    pathSuite({
      name: 'the search (spec §4 model)',
      model: searchModel,
      system: (tools) => {
        const h = harness({}, tools);
        return { actor: h.actor, states: searchChecks(h), events: searchEvents(h) };
      },
    }),
  ],
});
