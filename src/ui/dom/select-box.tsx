import type { ReactNode } from 'react';
import { IconLabel } from './icon-label';
import {
  Button,
  FieldError,
  ListBox,
  ListBoxItem,
  Popover,
  Select,
  SelectValue,
  Text,
  type Key,
} from 'react-aria-components';

/** A choice as people read it ("Male") for the value that is stored ("male"). */
export interface SelectOption {
  value: string;
  label: string;
}

interface SelectBoxProps {
  label: string;
  /** Shown before the label (a filter's `icon`). */
  icon?: ReactNode;
  options: readonly SelectOption[];
  /** The chosen values: none, one, or several when `multiple`. */
  value: readonly string[];
  onChange: (value: string[]) => void;
  multiple?: boolean;
  /** What the box says with nothing chosen (e.g. "Any", "Choose…"). */
  placeholder: string;
  /** Offers the placeholder as the first option, to choose nothing again (single only). */
  emptyOption?: string | undefined;
  className?: string;
  name?: string;
  description?: string | undefined;
  error?: string | null | undefined;
  isDisabled?: boolean | undefined;
  onBlur?: () => void;
}

/** The key of the "nothing chosen" option: no stored value looks like it. */
const NONE = '\u0000none';

/**
 * The one select of the app (React Aria's Select): forms and filter bars alike, single or
 * multiple, with its label, hint and error tied to it.
 */
export function SelectBox(props: SelectBoxProps) {
  const multiple = props.multiple ?? false;
  const isFilter = props.className?.split(' ').includes('filter') ?? false;
  const items: SelectOption[] =
    !multiple && props.emptyOption !== undefined
      ? [{ value: NONE, label: props.emptyOption }, ...props.options]
      : [...props.options];
  const toValues = (next: Key | readonly Key[] | null): string[] =>
    (Array.isArray(next) ? next : next === null ? [] : [next])
      .map(String)
      .filter((key) => key !== NONE);
  return (
    <Select
      className={`select-box ${props.className ?? ''}`}
      selectionMode={multiple ? 'multiple' : 'single'}
      value={multiple ? [...props.value] : (props.value[0] ?? null)}
      onChange={(next: Key | readonly Key[] | null) => props.onChange(toValues(next))}
      placeholder={props.placeholder}
      name={props.name}
      isDisabled={props.isDisabled}
      isInvalid={Boolean(props.error)}
      onBlur={props.onBlur}
    >
      <IconLabel
        className={isFilter ? 'filter-label' : 'field-label'}
        icon={props.icon}
        label={props.label}
      />
      <Button className={multiple ? 'select-button select-multiple' : 'select-button'}>
        {multiple ? (
          // Several values read as chips, so a multi-select does not pass for a single one.
          <SelectValue<SelectOption> className="select-chips">
            {({ selectedItems, isPlaceholder, defaultChildren }) =>
              isPlaceholder
                ? defaultChildren
                : selectedItems.flatMap((item) =>
                    item
                      ? [
                          <span key={item.value} className="select-chip" title={item.label}>
                            {item.label}
                          </span>,
                        ]
                      : [],
                  )
            }
          </SelectValue>
        ) : (
          <SelectValue />
        )}
        <span aria-hidden="true">▾</span>
      </Button>
      {props.description && (
        <Text slot="description" className="field-description">
          {props.description}
        </Text>
      )}
      <FieldError className="field-error">{props.error}</FieldError>
      {/* Several values stay open for more picks, so that list must not turn the page inert
          under it: it closes on Escape and when focus or a click goes elsewhere. */}
      <Popover className="menu-popover" isNonModal={multiple}>
        <ListBox className="menu" items={items}>
          {(option) => (
            <ListBoxItem id={option.value} className="menu-item" textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
