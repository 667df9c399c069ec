import type { TFunction } from 'i18next';
import { useMemo, useRef, type ReactNode } from 'react';
import { IconLabel } from '../icon-label';
import { ComboPopover } from './combo-popover';
import {
  Button,
  ButtonContext,
  Collection,
  ComboBox,
  Input,
  ListBox,
  ListBoxItem,
  ListBoxLoadMoreItem,
  Tag,
  TagGroup,
  TagList,
  Text,
  type Key,
} from 'react-aria-components';

export interface AutocompleteOption {
  id: string;
  label: string;
  /** A second line that tells options of the same label apart (a body's gender and id). */
  detail?: string;
  /** An icon before the label; null: the option has none (a blank of the same size). */
  iconUrl?: string | null;
}

interface AutocompleteFieldProps {
  label: string;
  /** Shown before the label (a filter's `icon`). */
  icon?: ReactNode;
  placeholder?: string | undefined;
  /** The options for the typed text (5 a page, from the filter's endpoint). */
  options: AutocompleteOption[];
  /** The list opened: show the first options without waiting for a keystroke. */
  onOpen?: () => void;
  /** Set while more options may follow: called as the end of the list comes into view. */
  onLoadMore?: (() => void) | undefined;
  isLoadingMore?: boolean;
  /** The chosen values' labels are being looked up: they (and the field's size) may change. */
  isLabelling?: boolean;
  inputValue: string;
  onInputChange: (text: string) => void;
  /** The chosen values with their labels (looked up by id on first load). */
  selected: AutocompleteOption[];
  onSelect: (id: string) => void;
  onRemove: (id: string) => void;
  multiple?: boolean | undefined;
  /** How many chosen values show as tags before "+N". */
  limitTags?: number | undefined;
  /**
   * The chosen values as whole chips on their own rows under the field (forms), instead of
   * inside the field's one-line box (filter bars, where a cut chip has its label as tooltip).
   */
  chipsBelow?: boolean | undefined;
  noResults: boolean;
  labels: AutocompleteLabels;
  /**
   * With it, typed text that no option names (ignoring case) is offered as a new option,
   * "Create tag “text”", which calls `onCreate` with the trimmed text.
   */
  create?: { label: (text: string) => string; onCreate: (text: string) => void } | undefined;
}

/** The key of the "Create …" option (no row id holds a NUL). */
const CREATE_KEY = '\u0000create';

interface AutocompleteLabels {
  noResults: string;
  /** Shown at the end of the list while the next options load. */
  loading: string;
  remove: (label: string) => string;
  more: (count: number) => string;
  /** The filter's clearButtonText (default Clear). */
  clear: string;
}

/** The combo box's texts from the locale (`list.*`); `clear` defaults to "Clear". */
export const autocompleteLabels = (t: TFunction, clear?: string): AutocompleteLabels => ({
  noResults: t('list.noResults'),
  loading: t('list.loading'),
  remove: (label) => t('list.removeValue', { label }),
  more: (count) => t('list.moreValues', { count }),
  clear: clear ?? t('list.clearValue'),
});

/**
 * The autocomplete filter (spec §3): a combo box whose options come from an endpoint, with
 * the chosen values as removable tags when it takes several.
 */
export function AutocompleteField(props: AutocompleteFieldProps) {
  const shown =
    props.limitTags && !props.chipsBelow
      ? props.selected.slice(0, props.limitTags)
      : props.selected;
  const hidden = props.selected.length - shown.length;
  const single = !props.multiple ? props.selected[0] : undefined;
  // One array per selection, not per render: React Aria treats a new `value` as a new
  // selection and resets the typed text.
  const idsKey = props.selected.map((option) => option.id).join('\u0000');
  const selectedIds = useMemo(() => (idsKey === '' ? [] : idsKey.split('\u0000')), [idsKey]);
  // With both the selection and the text controlled, React Aria reports a commit (a pick, or
  // Escape and blur reverting) through the selection callback and expects the text to follow;
  // left as typed, the list would open again at once and Escape could never close it.
  const clearText = () => {
    if (props.inputValue !== '') props.onInputChange('');
  };
  const fieldRef = useRef<HTMLDivElement>(null);
  const typed = props.inputValue.trim();
  const offersCreate =
    props.create !== undefined &&
    typed !== '' &&
    !props.options.some((option) => option.label.toLowerCase() === typed.toLowerCase());
  /** A pick of `key`: the "Create …" option creates, any other selects. */
  const pick = (key: string) => {
    if (key === CREATE_KEY) props.create?.onCreate(typed);
    else props.onSelect(key);
  };
  return (
    <div
      className={
        props.chipsBelow ? 'filter filter-autocomplete chips-below' : 'filter filter-autocomplete'
      }
      aria-busy={props.isLabelling || undefined}
    >
      <ComboBox<AutocompleteOption, 'single' | 'multiple'>
        className="combo"
        inputValue={props.inputValue}
        onInputChange={(text) => {
          props.onInputChange(text);
          // Emptying the text drops a single value, as React Aria does for a selection it holds
          // itself (ours is controlled): the last pick would stay chosen, out of sight, and an
          // "Add" beside the field would use it again.
          if (text === '' && single) props.onRemove(single.id);
        }}
        {...(props.multiple
          ? {
              // Several values: React Aria keeps the list open for more picks and closes it on
              // Escape; the chosen ones show as tags below.
              selectionMode: 'multiple',
              value: selectedIds,
              onChange: (value: Key | readonly Key[] | null) => {
                const keys = new Set(Array.isArray(value) ? value.map(String) : []);
                const added = [...keys].filter(
                  (key) => !props.selected.some((option) => option.id === key),
                );
                const removed = props.selected.filter((option) => !keys.has(option.id));
                added.forEach(pick);
                removed.forEach((option) => props.onRemove(option.id));
                // A pick starts the next search afresh. (React Aria also reports unchanged
                // values, e.g. on blur, while the user is still typing: those keep the text.)
                if (added.length > 0 || removed.length > 0) clearText();
              },
            }
          : {
              selectedKey: single?.id ?? null,
              // A commit without a pick reverts the text to the selection; with nothing
              // selected the typed text stays. (React Aria also commits when its list closes
              // by itself, e.g. on a scroll while the list opens: that must not eat the text.)
              onSelectionChange: (key: Key | null) => {
                if (key !== null) pick(String(key));
                else if (single) clearText();
              },
            })}
        items={props.options}
        menuTrigger="input"
        allowsEmptyCollection
        onOpenChange={(isOpen) => {
          if (isOpen) props.onOpen?.();
        }}
      >
        <IconLabel icon={props.icon} label={props.label} />
        <div className="combo-input" ref={fieldRef}>
          <Input
            // The placeholder ("Any") only while nothing is chosen.
            placeholder={props.selected.length > 0 ? undefined : props.placeholder}
            // Escape drops the typed text, which closes the list (React Aria reverts the text
            // only to a selection, and with none it would open the list again at once).
            onKeyDown={(event) => {
              if (event.key === 'Escape') clearText();
            }}
          />
          {single && (
            // Its own button, not the combo box's list toggle (which every Button inside
            // the ComboBox would otherwise become).
            <ButtonContext.Provider value={null}>
              <Button
                className="combo-clear"
                aria-label={props.labels.clear}
                onPress={() => props.onRemove(single.id)}
              >
                ×
              </Button>
            </ButtonContext.Provider>
          )}
          <Button className="select-toggle" excludeFromTabOrder>
            ▾
          </Button>
        </div>
        <ComboPopover className="menu-popover" fieldRef={fieldRef}>
          <ListBox
            className="menu"
            renderEmptyState={() =>
              props.noResults && !offersCreate ? (
                <div className="menu-empty">{props.labels.noResults}</div>
              ) : null
            }
          >
            <Collection items={props.options}>
              {(option: AutocompleteOption) => (
                <ListBoxItem id={option.id} className="menu-item" textValue={option.label}>
                  {option.iconUrl !== undefined &&
                    (option.iconUrl ? (
                      <img className="option-icon" src={option.iconUrl} alt="" />
                    ) : (
                      <span className="option-icon" aria-hidden="true" />
                    ))}
                  {option.detail === undefined ? (
                    option.label
                  ) : (
                    <span className="option-text">
                      <Text slot="label">{option.label}</Text>
                      <Text slot="description" className="option-detail">
                        {option.detail}
                      </Text>
                    </span>
                  )}
                </ListBoxItem>
              )}
            </Collection>
            {offersCreate && (
              <ListBoxItem id={CREATE_KEY} className="menu-item menu-create" textValue={typed}>
                {props.create!.label(typed)}
              </ListBoxItem>
            )}
            {props.onLoadMore && (
              <ListBoxLoadMoreItem
                className="menu-loading"
                onLoadMore={props.onLoadMore}
                isLoading={props.isLoadingMore ?? false}
              >
                {props.labels.loading}
              </ListBoxLoadMoreItem>
            )}
          </ListBox>
        </ComboPopover>
      </ComboBox>
      {/* The chosen values sit inside the field's box, before the text (at most limitTags,
          then "+N"): the field keeps its height and the bar its rows. Outside the ComboBox,
          whose collection would otherwise take the tags for its own items. */}
      {props.multiple && props.selected.length > 0 && (
        <TagGroup
          aria-label={props.label}
          className="tag-group"
          onRemove={(keys) => keys.forEach((key) => props.onRemove(String(key)))}
        >
          <TagList className="tag-list">
            {shown.map((option) => (
              <Tag key={option.id} id={option.id} textValue={option.label} className="tag">
                <span
                  className="tag-text"
                  title={option.detail ? `${option.label} (${option.detail})` : option.label}
                >
                  {option.label}
                </span>
                <Button slot="remove" aria-label={props.labels.remove(option.label)}>
                  ×
                </Button>
              </Tag>
            ))}
          </TagList>
          {hidden > 0 && <span className="tag more">{props.labels.more(hidden)}</span>}
        </TagGroup>
      )}
    </div>
  );
}
