import { useActorRef, useSelector } from '@xstate/react';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { inspect } from '../devtools/inspect';
import {
  autocompleteMachine,
  selectHasMore,
  selectIsLabelling,
  selectIsLoadingMore,
  selectIsSearching,
  selectNoResults,
  type AutocompleteValue,
  type DescribeRow,
  type KnownLabels,
  selectOptions,
  selectSelected,
} from './autocomplete.machine';
import { AutocompleteField, autocompleteLabels } from '../ui/dom/list/autocomplete-field';
import { filterTexts, type FilterValue } from '../../contract/list-query';
import type { FilterDef } from '../ui/dom/list/filter-bar';

interface AutocompleteFilterProps {
  filter: FilterDef;
  value: FilterValue;
  onChange: (value: FilterValue) => void;
  /** The chosen values as whole chips on their own rows under the field (forms). */
  chipsBelow?: boolean;
  /** Offers "Create … “text”" for text no option names; answers the created row (or none). */
  create?: Creates;
  /** Labels of values the caller already knows (not looked up again). */
  labels?: KnownLabels;
  /** A detail line and an icon per option (bodies that share a name told apart). */
  describe?: DescribeRow;
}

/** Creating a row from the picker's text: the option's label, and the call that creates it. */
export interface Creates {
  label: (text: string) => string;
  /** Answers the created row, or undefined when it failed (the caller shows why). */
  run: (text: string) => Promise<{ id: string; name: string } | undefined>;
}

/** Binds one autocomplete filter definition to its machine and the combo box (spec §4). */
export function AutocompleteFilter({
  filter,
  value,
  onChange,
  chipsBelow,
  create,
  labels,
  describe,
}: AutocompleteFilterProps) {
  const { t } = useTranslation();
  const actor = useActorRef(autocompleteMachine, {
    inspect,
    input: {
      endpoint: filter.endpoint ?? '',
      ...(filter.findByIdEndpoint ? { findByIdEndpoint: filter.findByIdEndpoint } : {}),
      ...(filter.searchField ? { searchField: filter.searchField } : {}),
      ...(filter.displayField ? { displayField: filter.displayField } : {}),
      ...(filter.extraQueryParams ? { extraQueryParams: filter.extraQueryParams } : {}),
      multiple: Boolean(filter.multiple),
      value: asIds(value),
      ...(labels ? { labels } : {}),
      ...(describe ? { describe } : {}),
    },
  });
  const options = useSelector(actor, selectOptions);
  const selected = useSelector(actor, selectSelected);
  const noResults = useSelector(actor, selectNoResults);
  const hasMore = useSelector(actor, selectHasMore);
  const isLoadingMore = useSelector(actor, selectIsLoadingMore);
  const isLabelling = useSelector(actor, selectIsLabelling);
  // "Create" is offered for the text only once its search has answered: before, the options
  // of the text may not be there yet, and a click could create a row that exists.
  const isSearching = useSelector(actor, selectIsSearching);
  const text = useSelector(actor, (s) => s.context.text);

  const labelsRef = useRef(labels);
  // The machine emits each change; the list stores it (and may hand it back changed).
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
    labelsRef.current = labels;
  });
  const emitted = useRef<string>('');
  useEffect(() => {
    const subscription = actor.on('VALUE_CHANGED', ({ value: next }) => {
      emitted.current = JSON.stringify(next ?? null);
      onChangeRef.current(next ?? undefined);
    });
    return () => subscription.unsubscribe();
  }, [actor]);
  useEffect(() => {
    const key = JSON.stringify(value ?? null);
    if (key === emitted.current) return;
    emitted.current = key;
    actor.send({
      type: 'SET_VALUE',
      value: asIds(value),
      ...(labelsRef.current ? { labels: labelsRef.current } : {}),
    });
  }, [value, actor]);

  return (
    <AutocompleteField
      label={filter.label}
      icon={filter.icon}
      placeholder={filter.placeholder}
      options={options.map((o) => ({
        id: o.value,
        label: o.label,
        ...(o.detail === undefined ? {} : { detail: o.detail }),
        ...(o.iconUrl === undefined ? {} : { iconUrl: o.iconUrl }),
      }))}
      inputValue={text}
      onInputChange={(next) => actor.send({ type: 'TYPE', text: next })}
      onOpen={() => actor.send({ type: 'OPEN' })}
      onLoadMore={hasMore ? () => actor.send({ type: 'LOAD_MORE' }) : undefined}
      isLoadingMore={isLoadingMore}
      isLabelling={isLabelling}
      selected={selected.map((o) => ({
        id: o.value,
        label: o.label,
        ...(o.detail === undefined ? {} : { detail: o.detail }),
      }))}
      onSelect={(id) => {
        const option = options.find((o) => o.value === id);
        if (option) actor.send({ type: 'SELECT', option });
      }}
      onRemove={(id) => actor.send({ type: 'REMOVE', value: id })}
      multiple={filter.multiple}
      limitTags={filter.limitTags}
      chipsBelow={chipsBelow}
      noResults={noResults}
      labels={autocompleteLabels(t, filter.clearButtonText)}
      create={
        create && !isSearching
          ? {
              label: create.label,
              // The new row is picked like any option: the machine emits the new value.
              onCreate: (name) =>
                void create.run(name).then((row) => {
                  if (row)
                    actor.send({ type: 'SELECT', option: { value: row.id, label: row.name } });
                }),
            }
          : undefined
      }
    />
  );
}

interface EntityPickerProps {
  label: string;
  /** The form field the picker fills (names the input). */
  field: string;
  /** Where options come from; rows are found by id at `<endpoint>/<id>`. */
  endpoint: string;
  extraQueryParams?: Record<string, string>;
  /** The row field shown as each option's label (default `name`; users show their `email`). */
  displayField?: string;
  multiple?: boolean;
  /** With `multiple`: chips shown before "+N more". */
  limitTags?: number;
  value: string[];
  onChange: (ids: string[]) => void;
  /** With it, text that names no row can be created and picked (the asset's tags). */
  create?: Creates | undefined;
  /** Labels of chosen rows the page already has, by id: shown at once, not looked up. */
  labels?: KnownLabels;
  /** Shown in the empty box (where the label is not shown, as in the bulk bar). */
  placeholder?: string;
  /** A detail line and an icon per option (bodies that share a name told apart). */
  describe?: DescribeRow;
}

/**
 * Picks one or more rows of a resource by name (tags, applications, body assets). Memoised: in
 * a bulk bar it sits beside a count that changes with every row selected, and it draws the same.
 */
export const EntityPicker = memo(function EntityPicker({
  label,
  field,
  endpoint,
  extraQueryParams,
  displayField,
  limitTags,
  create,
  placeholder,
  labels,
  describe,
  ...props
}: EntityPickerProps) {
  return (
    <AutocompleteFilter
      filter={{
        field,
        type: 'autocomplete',
        label,
        endpoint,
        findByIdEndpoint: endpoint,
        multiple: Boolean(props.multiple),
        ...(limitTags === undefined ? {} : { limitTags }),
        ...(extraQueryParams ? { extraQueryParams } : {}),
        ...(displayField ? { displayField } : {}),
        ...(placeholder ? { placeholder } : {}),
      }}
      value={props.value}
      onChange={(value) => props.onChange(filterTexts(value))}
      chipsBelow
      {...(create ? { create } : {})}
      {...(labels ? { labels } : {})}
      {...(describe ? { describe } : {})}
    />
  );
});

/** A filter value as the ids the autocomplete holds, in the same shape (one, several, none). */
const asIds = (value: FilterValue): AutocompleteValue =>
  Array.isArray(value)
    ? value.map(String)
    : value === null || value === undefined
      ? value
      : String(value);
