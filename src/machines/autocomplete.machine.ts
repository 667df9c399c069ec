/**
 * The autocomplete filter (spec §3 filter definition, §4 "Autocomplete filter", §7, §8, §9):
 * typing searches the configured endpoint (debounced 150 ms, 5 options a page, newest answer
 * only); opening the list with nothing typed shows the first options at once, and scrolling to
 * its end reads the next page. Selected ids are looked up by id on start to show their labels
 * (unless the caller already knows them), and every selection change is emitted as the filter's
 * new value.
 */
import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { errorInfo, type ApiErrorInfo } from '../api/error-info';
import type { ListFilter, ListQuery, ListRow } from '../../contract/list-query';
import { anyRowSchema, findById, readList } from '../api/lists';

/** Spec §9. */
export const AUTOCOMPLETE_LIMIT = 5;
export const AUTOCOMPLETE_DEBOUNCE_MS = 150;
export const DEFAULT_SEARCH_FIELD = 'search';
export const DEFAULT_DISPLAY_FIELD = 'name';

/** A filter value: one id, or a list of ids when `multiple`. */
export type AutocompleteValue = string | readonly string[] | null | undefined;

export interface AutocompleteInput {
  endpoint: string;
  /** Where `GET <findByIdEndpoint>/{id}` reads a selected row; defaults to `endpoint`. */
  findByIdEndpoint?: string;
  searchField?: string;
  displayField?: string;
  extraQueryParams?: ListFilter;
  multiple?: boolean;
  value?: AutocompleteValue;
  /** Labels the caller already knows, by id: those ids are not looked up. */
  labels?: KnownLabels;
  /** What tells an option apart beyond its label (a body's gender, icon and id). */
  describe?: DescribeRow;
}

/** An option's detail line and icon, from its row. */
export type DescribeRow = (row: ListRow) => { detail?: string; iconUrl?: string | null };

/** Labels by id, known without asking the server (an asset's tags come with their names). */
export type KnownLabels = Readonly<Record<string, string>>;

export interface AutocompleteOption {
  value: string;
  label: string;
  /** With `describe`: a line that tells options of the same label apart, and an icon. */
  detail?: string;
  iconUrl?: string | null;
}

export interface AutocompleteContext {
  endpoint: string;
  findByIdEndpoint: string;
  searchField: string;
  displayField: string;
  describe: DescribeRow | undefined;
  extraQueryParams: ListFilter;
  multiple: boolean;
  text: string;
  options: AutocompleteOption[];
  /** The text the options answer (null before the first search), and how many pages they hold. */
  searched: string | null;
  page: number;
  /** The last page was full: scrolling to the end may read another. */
  hasMore: boolean;
  /** The last search answered nothing: the UI shows "No Results". */
  noResults: boolean;
  /**
   * Labels start as the caller's known ones, or the ids until the find-by-id calls answer.
   */
  selected: AutocompleteOption[];
  /** The selected ids whose labels are still to be looked up. */
  unlabelled: string[];
  error: ApiErrorInfo | null;
}

export type AutocompleteEvent =
  | { type: 'TYPE'; text: string }
  /** The list opened (the toggle, a click): options for the text now, if none are shown yet. */
  | { type: 'OPEN' }
  /** The end of the options came into view. */
  | { type: 'LOAD_MORE' }
  | { type: 'SELECT'; option: AutocompleteOption }
  | { type: 'REMOVE'; value: string }
  | { type: 'CLEAR' }
  /**
   * The value changed from outside (Clear Filters, the address): labels not given are looked
   * up again.
   */
  | { type: 'SET_VALUE'; value: AutocompleteValue; labels?: KnownLabels };

/** The new filter value after each selection change. */
export type AutocompleteEmitted = { type: 'VALUE_CHANGED'; value: string | string[] | null };

export interface SearchInput {
  endpoint: string;
  query: ListQuery;
}

export interface FindSelectedInput {
  endpoint: string;
  ids: string[];
}

/** The ids of a value; spec §8: a multiple autocomplete given a non-array warns and wraps it. */
export function selectedIds(value: AutocompleteValue, multiple: boolean): string[] {
  if (value === null || value === undefined || value === '') return [];
  if (typeof value === 'string') {
    if (multiple)
      console.warn('Autocomplete: the value of a multiple autocomplete must be an array', value);
    return [value];
  }
  return multiple ? [...value] : value.slice(0, 1);
}

/** An option for a row: its id and the display field (the id when that is missing). */
export function toOption(
  row: ListRow,
  displayField: string,
  describe?: DescribeRow,
): AutocompleteOption {
  const label = (row as unknown as Record<string, unknown>)[displayField];
  return {
    value: row.id,
    label: typeof label === 'string' || typeof label === 'number' ? String(label) : row.id,
    ...describe?.(row),
  };
}

const valueOf = (context: AutocompleteContext): string | string[] | null => {
  const ids = context.selected.map((option) => option.value);
  return context.multiple ? ids : (ids[0] ?? null);
};

/** A search for the text: its first page leaves the page out (spec §7), later ones name it. */
const searchInput = (context: AutocompleteContext, page = 1): SearchInput => ({
  endpoint: context.endpoint,
  query: {
    ...(page > 1 ? { page } : {}),
    limit: AUTOCOMPLETE_LIMIT,
    filter: { [context.searchField]: context.text, ...context.extraQueryParams },
  },
});

/** The selection for `ids`: known labels, else the id until its lookup answers. */
const labelled = (ids: readonly string[], labels: KnownLabels = {}) => ({
  selected: ids.map((id) => ({ value: id, label: labels[id] ?? id })),
  unlabelled: ids.filter((id) => labels[id] === undefined),
});

/** A single value whose label is known shows it in the empty box, as a looked-up one does. */
const shownText = (
  multiple: boolean,
  text: string,
  { selected, unlabelled }: ReturnType<typeof labelled>,
) =>
  !multiple && text === '' && selected[0] && unlabelled.length === 0 ? selected[0].label : text;

export const autocompleteMachine = setup({
  types: {
    context: {} as AutocompleteContext,
    events: {} as AutocompleteEvent,
    input: {} as AutocompleteInput,
    emitted: {} as AutocompleteEmitted,
  },
  delays: { DEBOUNCE: AUTOCOMPLETE_DEBOUNCE_MS },
  actors: {
    // Through the app's cache: the list opens again with its options at once, and a change
    // to the resource (its mutations, live events) marks them stale.
    search: fromPromise<ListRow[], SearchInput>(async ({ input, signal }) => {
      const answer = await readList(input.endpoint, input.query, anyRowSchema, { signal });
      return answer.data;
    }),
    // One find-by-id call per selected id (spec §7); an id that cannot be read keeps its id as label.
    findSelected: fromPromise<ListRow[], FindSelectedInput>(async ({ input, signal }) => {
      const results = await Promise.allSettled(
        input.ids.map((id) => findById(input.endpoint, id, anyRowSchema, { signal })),
      );
      return results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    }),
  },
  actions: {
    setText: assign(({ event }) => {
      assertEvent(event, 'TYPE');
      return { text: event.text };
    }),
    showOptions: assign(({ context }, rows: ListRow[]) => ({
      options: rows.map((row) => toOption(row, context.displayField, context.describe)),
      searched: context.text,
      page: 1,
      hasMore: rows.length === AUTOCOMPLETE_LIMIT,
      noResults: rows.length === 0,
      error: null,
    })),
    addOptions: assign(({ context }, rows: ListRow[]) => {
      const known = new Set(context.options.map((option) => option.value));
      const added = rows.filter((row) => !known.has(row.id));
      return {
        options: [
          ...context.options,
          ...added.map((row) => toOption(row, context.displayField, context.describe)),
        ],
        page: context.page + 1,
        hasMore: rows.length === AUTOCOMPLETE_LIMIT && added.length > 0,
        error: null,
      };
    }),
    setError: assign((_, params: { error: unknown }) => ({ error: errorInfo(params.error) })),
    labelSelected: assign(({ context }, rows: ListRow[]) => {
      const selected = context.selected.map((option) => {
        const row = rows.find((candidate) => candidate.id === option.value);
        return row ? toOption(row, context.displayField, context.describe) : option;
      });
      // A single value given from outside shows its label once known (unless the user typed).
      const next = { selected, unlabelled: [] };
      return { ...next, text: shownText(context.multiple, context.text, next) };
    }),
    select: assign(({ context, event }) => {
      assertEvent(event, 'SELECT');
      // A single pick shows the chosen option's label, not the fragment typed to find it.
      if (!context.multiple) return { selected: [event.option], text: event.option.label };
      const known = context.selected.some((option) => option.value === event.option.value);
      return { selected: known ? context.selected : [...context.selected, event.option] };
    }),
    remove: assign(({ context, event }) => {
      assertEvent(event, 'REMOVE');
      return {
        selected: context.selected.filter((option) => option.value !== event.value),
        text: context.multiple ? context.text : '',
      };
    }),
    clear: assign(({ context }) => ({ selected: [], text: context.multiple ? context.text : '' })),
    adoptValue: assign(({ context, event }) => {
      assertEvent(event, 'SET_VALUE');
      // A single field that shows the old value's label empties (the new one's label follows
      // from the lookup); a text being typed carries on.
      const showsValue = !context.multiple && context.text === context.selected[0]?.label;
      const next = labelled(selectedIds(event.value, context.multiple), event.labels);
      return { ...next, text: shownText(context.multiple, showsValue ? '' : context.text, next) };
    }),
    emitValue: emit(({ context }) => ({ type: 'VALUE_CHANGED' as const, value: valueOf(context) })),
  },
  guards: {
    hasUnlabelled: ({ context }) => context.unlabelled.length > 0,
    isSameValue: ({ context, event }) => {
      assertEvent(event, 'SET_VALUE');
      const ids = selectedIds(event.value, context.multiple);
      return (
        ids.length === context.selected.length &&
        ids.every((id, i) => id === context.selected[i]?.value)
      );
    },
    showsOtherText: ({ context }) => context.searched !== context.text,
    hasMore: ({ context }) => context.hasMore,
  },
}).createMachine({
  id: 'autocomplete',
  context: ({ input }) => {
    const multiple = input.multiple ?? false;
    const { selected, unlabelled } = labelled(selectedIds(input.value, multiple), input.labels);
    return {
      endpoint: input.endpoint,
      findByIdEndpoint: input.findByIdEndpoint ?? input.endpoint,
      searchField: input.searchField ?? DEFAULT_SEARCH_FIELD,
      displayField: input.displayField ?? DEFAULT_DISPLAY_FIELD,
      describe: input.describe,
      extraQueryParams: input.extraQueryParams ?? {},
      multiple,
      text: shownText(multiple, '', { selected, unlabelled }),
      options: [],
      searched: null,
      page: 1,
      hasMore: false,
      noResults: false,
      selected,
      unlabelled,
      error: null,
    };
  },
  type: 'parallel',
  on: {
    SELECT: { actions: ['select', 'emitValue'] },
    REMOVE: { actions: ['remove', 'emitValue'] },
    CLEAR: { actions: ['clear', 'emitValue'] },
  },
  states: {
    labels: {
      initial: 'checking',
      on: {
        SET_VALUE: [
          // The value this field just chose, handed back (a form keeps ids as a list): the
          // label shown stays, and the list does not open again over the page.
          { guard: 'isSameValue' },
          { target: '.checking', actions: 'adoptValue' },
        ],
      },
      states: {
        checking: {
          always: [{ guard: 'hasUnlabelled', target: 'resolving' }, { target: 'ready' }],
        },
        resolving: {
          invoke: {
            src: 'findSelected',
            input: ({ context }): FindSelectedInput => ({
              endpoint: context.findByIdEndpoint,
              ids: context.unlabelled,
            }),
            onDone: {
              target: 'ready',
              actions: { type: 'labelSelected', params: ({ event }) => event.output },
            },
            onError: { target: 'ready' },
          },
        },
        ready: {},
      },
    },
    search: {
      initial: 'idle',
      on: { TYPE: { target: '.debouncing', actions: 'setText' } },
      states: {
        idle: {
          on: {
            OPEN: { guard: 'showsOtherText', target: 'searching' },
            LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' },
          },
        },
        debouncing: { after: { DEBOUNCE: 'searching' } },
        searching: {
          // Re-entering on TYPE stops this read: a late answer of an older text is never shown.
          invoke: {
            src: 'search',
            input: ({ context }) => searchInput(context),
            onDone: {
              target: 'idle',
              actions: { type: 'showOptions', params: ({ event }) => event.output },
            },
            onError: {
              target: 'idle',
              actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        // The options shown stay; the next page is added below them.
        loadingMore: {
          invoke: {
            src: 'search',
            input: ({ context }) => searchInput(context, context.page + 1),
            onDone: {
              target: 'idle',
              actions: { type: 'addOptions', params: ({ event }) => event.output },
            },
            onError: {
              target: 'idle',
              actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});

export type AutocompleteMachine = typeof autocompleteMachine;
export type AutocompleteSnapshot = SnapshotFrom<AutocompleteMachine>;

/**
 * The options to show: until the text's own answer comes, only those of the last answer that
 * contain the text (the server's search is a case-insensitive substring match of the name).
 * None the text rules out is offered, and the one a person is about to click stays where it is
 * when the answer arrives instead of moving under the pointer.
 */
export const selectOptions = (snapshot: AutocompleteSnapshot) => narrowed(snapshot.context);

const narrowed = ({ options, searched, text }: AutocompleteContext) => {
  if (searched === null || searched === text) return options;
  const typed = text.toLowerCase();
  return options.filter((option) => option.label.toLowerCase().includes(typed));
};
export const selectSelected = (snapshot: AutocompleteSnapshot) => snapshot.context.selected;
export const selectNoResults = (snapshot: AutocompleteSnapshot) => snapshot.context.noResults;
export const selectIsSearching = (snapshot: AutocompleteSnapshot) =>
  !snapshot.matches({ search: 'idle' });
/** Selected ids are being looked up: their labels (and the field's size) may still change. */
export const selectIsLabelling = (snapshot: AutocompleteSnapshot) =>
  snapshot.matches({ labels: 'resolving' });
export const selectIsLoadingMore = (snapshot: AutocompleteSnapshot) =>
  snapshot.matches({ search: 'loadingMore' });
export const selectHasMore = (snapshot: AutocompleteSnapshot) => snapshot.context.hasMore;
