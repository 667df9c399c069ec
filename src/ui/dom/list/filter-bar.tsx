import type { TFunction } from 'i18next';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Dialog, Heading, Input, Modal, SearchField } from 'react-aria-components';
import { IconLabel } from '../icon-label';
import {
  cleanFilter,
  filterTexts,
  type FilterValue,
  type ListFilter,
} from '../../../../contract/list-query';
import { SelectBox } from '../select-box';
import { PHONE_QUERY, useMediaQuery } from '../use-media-query';

/** Spec §3 filter definition. */
export interface FilterDef {
  field: string;
  /** `date`: a day (`YYYY-MM-DD`), picked with the browser's date input. */
  type: 'text' | 'multi-select' | 'single-select' | 'autocomplete' | 'date';
  label: string;
  value?: FilterValue;
  placeholder?: string;
  options?: { value: string; label: string }[];
  preselectValue?: string;
  position?: 'left' | 'right';
  visibleOnMobile?: boolean;
  hiddenWithOneOption?: boolean;
  icon?: ReactNode;
  /** Autocomplete: the query parameter the typed text goes in (default `search`). */
  searchField?: string;
  /** Autocomplete: the row field shown as the option label (default `name`). */
  displayField?: string;
  endpoint?: string;
  findByIdEndpoint?: string;
  multiple?: boolean;
  limitTags?: number;
  extraQueryParams?: Record<string, string>;
  /** The clear button's name (default the locale's "Clear", list.clearValue). */
  clearButtonText?: string;
}

interface FilterBarLabels {
  filters: string;
  allFilters: string;
  apply: string;
  cancel: string;
  clear: string;
  /** Placeholder of a select filter with nothing chosen. */
  any: string;
}

/** The filter bar's texts from the locale (`list.*`). */
export const filterBarLabels = (t: TFunction): FilterBarLabels => ({
  filters: t('list.filters'),
  allFilters: t('list.allFilters'),
  apply: t('list.apply'),
  cancel: t('list.cancel'),
  clear: t('list.clear'),
  any: t('list.any'),
});

interface FilterBarProps {
  filters: FilterDef[];
  values: ListFilter;
  onChange: (field: string, value: FilterValue) => void;
  /** Replaces every value at once (the mobile overlay's Apply). */
  onApply: (values: ListFilter) => void;
  onClear: () => void;
  /**
   * How many filters the user set beyond the list's preselected values: "All Filters" shows
   * it, and Clear is offered while it is above 0.
   */
  setCount: number;
  labels: FilterBarLabels;
  /** Renders an autocomplete filter; the route binds it to its machine. */
  renderAutocomplete: (
    filter: FilterDef,
    value: FilterValue,
    onChange: (value: FilterValue) => void,
  ) => ReactNode;
}

/** Spec §3: the filters' initial values (`value`): the list's filter before any choice. */
export function initialValuesOf(filters: readonly FilterDef[]): ListFilter {
  return cleanFilter(Object.fromEntries(filters.map((f) => [f.field, f.value])));
}

/** A filter hidden for having a single option (hiddenWithOneOption) on wide screens. */
export const isHiddenFilter = (f: FilterDef) =>
  Boolean(f.hiddenWithOneOption && (f.options?.length ?? 0) <= 1);

/**
 * How long a text filter in the bar waits after the last key before it hands the text on:
 * typing stays inside the field, so a keystroke re-renders neither the list nor
 * the address, and a word typed at a normal pace reaches the list (and its debounced request)
 * once. Enter and the clear button hand it on at once.
 */
export const TYPING_PAUSE_MS = 150;

function TextFilter(props: {
  filter: FilterDef;
  value: string;
  onChange: (value: FilterValue) => void;
  /** 0: every change is handed on at once (the All Filters overlay, applied as a whole). */
  pauseMs: number;
}) {
  const { filter, value, onChange, pauseMs } = props;
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  // The value last seen from outside, and the text last handed on.
  const [seen, setSeen] = useState(value);
  const [sent, setSent] = useState(value);
  // Counts the values adopted from outside: each drops the text still waiting to go.
  const [adopted, setAdopted] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), [adopted]);
  // A value set from outside (Clear Filters, Back) replaces the text; the echo of what this
  // field handed on does not (more may have been typed since).
  if (value !== seen) {
    setSeen(value);
    if (value !== sent) {
      setText(value);
      setSent(value);
      setAdopted(adopted + 1);
    }
  }
  const handOn = (next: string) => {
    clearTimeout(timer.current);
    setSent(next);
    if (next !== sent) onChange(next);
  };
  return (
    <SearchField
      className="filter filter-text"
      value={text}
      onChange={(next) => {
        setText(next);
        clearTimeout(timer.current);
        if (pauseMs === 0 || next === '') handOn(next);
        else timer.current = setTimeout(() => handOn(next), pauseMs);
      }}
      onSubmit={handOn}
    >
      <IconLabel icon={filter.icon} label={filter.label} />
      <div className="search-box">
        <Input placeholder={filter.placeholder} />
        <Button
          className="search-clear"
          aria-label={filter.clearButtonText ?? t('list.clearValue')}
        >
          ×
        </Button>
      </div>
    </SearchField>
  );
}

function FilterControl(props: {
  filter: FilterDef;
  anyLabel: string;
  value: FilterValue;
  onChange: (value: FilterValue) => void;
  renderAutocomplete: FilterBarProps['renderAutocomplete'];
  typingPauseMs: number;
}) {
  const { filter, value, onChange } = props;
  switch (filter.type) {
    case 'text':
      return (
        <TextFilter
          filter={filter}
          value={filterTexts(value)[0] ?? ''}
          onChange={onChange}
          pauseMs={props.typingPauseMs}
        />
      );
    case 'single-select':
    case 'multi-select': {
      const multiple = filter.type === 'multi-select';
      return (
        <SelectBox
          className="filter filter-select"
          label={filter.label}
          icon={filter.icon}
          multiple={multiple}
          options={filter.options ?? []}
          value={filterTexts(value)}
          onChange={(next) => onChange(multiple ? next : next[0])}
          placeholder={filter.placeholder ?? props.anyLabel}
          // Back to "Any" — unless the filter always holds a value (preselectValue, spec §4).
          emptyOption={filter.preselectValue ? undefined : props.anyLabel}
        />
      );
    }
    case 'autocomplete':
      return <>{props.renderAutocomplete(filter, value, onChange)}</>;
    case 'date':
      // The browser's input answers a whole day or nothing, never a half-typed one.
      return (
        <label className="filter filter-date">
          <span className="filter-label">
            {filter.icon && (
              <span className="filter-icon" aria-hidden="true">
                {filter.icon}
              </span>
            )}
            {filter.label}
          </span>
          <input
            type="date"
            className="date-box"
            value={filterTexts(value)[0] ?? ''}
            onChange={(event) => onChange(event.target.value)}
          />
        </label>
      );
  }
}

/**
 * The filter bar above a list (spec §2): filters on the left or right; below the medium
 * breakpoint only `visibleOnMobile` filters show and "All Filters" opens a full-screen
 * overlay whose edits apply only on Apply (Cancel discards them); a list whose filters all
 * show on a phone has no All Filters.
 */
export function FilterBar(props: FilterBarProps) {
  const isMobile = useMediaQuery(PHONE_QUERY);
  const [draft, setDraft] = useState<ListFilter | null>(null);
  const visible = props.filters.filter(
    (f) => !isHiddenFilter(f) && (!isMobile || f.visibleOnMobile),
  );
  // All Filters only offers what the phone hides: a list whose filters all show needs none.
  const hidesSome = props.filters.some((f) => !isHiddenFilter(f) && !f.visibleOnMobile);
  const control = (
    filter: FilterDef,
    values: ListFilter,
    onChange: FilterBarProps['onChange'],
    typingPauseMs = 0,
  ) => (
    <FilterControl
      key={filter.field}
      filter={filter}
      anyLabel={props.labels.any}
      value={values[filter.field]}
      onChange={(value) => onChange(filter.field, value)}
      renderAutocomplete={props.renderAutocomplete}
      typingPauseMs={typingPauseMs}
    />
  );
  const side = (position: 'left' | 'right') =>
    visible
      .filter((f) => (f.position ?? 'left') === position)
      .map((f) => control(f, props.values, props.onChange, TYPING_PAUSE_MS));

  return (
    <div className="filter-bar" role="search" aria-label={props.labels.filters}>
      <div className="filter-side left">{side('left')}</div>
      <div className="filter-side right">
        {side('right')}
        {isMobile && hidesSome && (
          <Button className="button" onPress={() => setDraft({ ...props.values })}>
            {props.labels.allFilters}
            {props.setCount > 0 && <span className="count-badge">{props.setCount}</span>}
          </Button>
        )}
        {props.setCount > 0 && (
          <Button className="button link" onPress={props.onClear}>
            {props.labels.clear}
          </Button>
        )}
      </div>
      <Modal
        isOpen={draft !== null}
        onOpenChange={(open) => !open && setDraft(null)}
        className="modal fullscreen"
      >
        <Dialog className="dialog filter-overlay">
          <Heading slot="title">{props.labels.allFilters}</Heading>
          <div className="filter-overlay-fields">
            {draft &&
              props.filters
                .filter((f) => !isHiddenFilter(f))
                .map((f) =>
                  control(f, draft, (field, value) =>
                    setDraft((d) => ({ ...(d ?? {}), [field]: value })),
                  ),
                )}
          </div>
          <div className="dialog-actions">
            <Button className="button" onPress={() => setDraft(null)}>
              {props.labels.cancel}
            </Button>
            <Button
              className="button primary"
              onPress={() => {
                if (draft) props.onApply(draft);
                setDraft(null);
              }}
            >
              {props.labels.apply}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </div>
  );
}
