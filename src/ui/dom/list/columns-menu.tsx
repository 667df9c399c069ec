/**
 * The list toolbar's "Columns" button: a dialog where the user shows, hides and orders the
 * list's columns, and goes back to the defaults. The choice is the user's column layout of this
 * list (column-layout.ts); the table reads the same layout and follows at once.
 */
import type { TFunction } from 'i18next';
import { useEffect, useId, useRef, useState } from 'react';
import { Button, Checkbox, Dialog, DialogTrigger, Heading, Popover } from 'react-aria-components';
import {
  isDefaultColumnLayout,
  repairColumnLayout,
  useColumnLayout,
  type ColumnLayout,
} from './column-layout';
import type { ListColumn } from './columns';

export interface ColumnsMenuLabels {
  button: string;
  title: string;
  /** Says why the first column's box cannot be cleared. */
  alwaysShown: string;
  moveUp: (column: string) => string;
  moveDown: (column: string) => string;
  reset: string;
}

/** The dialog's texts from the locale (`list.columns.*`). */
export const columnsMenuLabels = (t: TFunction): ColumnsMenuLabels => ({
  button: t('list.columns.button'),
  title: t('list.columns.title'),
  alwaysShown: t('list.columns.alwaysShown'),
  moveUp: (column) => t('list.columns.moveUp', { column }),
  moveDown: (column) => t('list.columns.moveDown', { column }),
  reset: t('list.columns.reset'),
});

interface ColumnsMenuProps<Row> {
  /** The list's name its layout is remembered by (the same the table is given). */
  listKey: string;
  columns: ListColumn<Row>[];
  labels: ColumnsMenuLabels;
}

type Moved = { field: string; by: -1 | 1 };

export function ColumnsMenu<Row>({ listKey, columns, labels }: ColumnsMenuProps<Row>) {
  const [stored, setLayout] = useColumnLayout(listKey);
  const fields = columns.map((c) => c.field);
  const layout = repairColumnLayout(stored, fields);
  const names = new Map(columns.map((c) => [c.field, c.headerName]));
  const hidden = new Set(layout.hidden);
  const save = (next: ColumnLayout) =>
    setLayout(isDefaultColumnLayout(next, fields) ? undefined : next);
  const [moved, setMoved] = useState<Moved>();
  const listRef = useRef<HTMLUListElement>(null);
  const noteId = useId();
  // A moved column's row goes elsewhere in the list: the focus goes with it, to the button
  // pressed, or to the other one where the column reached an end.
  useEffect(() => {
    if (!moved) return;
    const row = listRef.current?.querySelector(`[data-field="${CSS.escape(moved.field)}"]`);
    const buttons = [...(row?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const wanted = moved.by < 0 ? buttons : buttons.toReversed();
    wanted.find((button) => !button.disabled)?.focus();
  }, [moved, layout.order]);

  const move = (field: string, by: -1 | 1) => {
    const order = [...layout.order];
    const from = order.indexOf(field);
    const to = from + by;
    // The first column (the row's name) stays first.
    if (from < 1 || to < 1 || to >= order.length) return;
    order.splice(from, 1);
    order.splice(to, 0, field);
    save({ ...layout, order });
    setMoved({ field, by });
  };

  return (
    <DialogTrigger>
      <Button className="button columns-button">
        {labels.button}
        <span aria-hidden="true"> ▾</span>
      </Button>
      <Popover className="menu-popover columns-popover" placement="bottom end">
        <Dialog className="columns-dialog">
          <Heading slot="title" className="columns-title">
            {labels.title}
          </Heading>
          <ul className="columns-list" ref={listRef}>
            {layout.order.map((field, index) => {
              const name = names.get(field) ?? field;
              const first = index === 0;
              return (
                <li key={field} data-field={field}>
                  <Checkbox
                    className="checkbox"
                    isSelected={!hidden.has(field)}
                    isDisabled={first}
                    {...(first ? { 'aria-describedby': noteId } : {})}
                    onChange={(show) =>
                      save({
                        ...layout,
                        hidden: show
                          ? layout.hidden.filter((f) => f !== field)
                          : [...layout.hidden, field],
                      })
                    }
                  >
                    <span className="checkbox-box" aria-hidden="true" />
                    <span className="columns-name">{name}</span>
                  </Checkbox>
                  {first ? (
                    <span id={noteId} className="columns-note">
                      {labels.alwaysShown}
                    </span>
                  ) : (
                    <span className="columns-move">
                      <Button
                        className="button icon-button"
                        aria-label={labels.moveUp(name)}
                        isDisabled={index <= 1}
                        onPress={() => move(field, -1)}
                      >
                        <span aria-hidden="true">↑</span>
                      </Button>
                      <Button
                        className="button icon-button"
                        aria-label={labels.moveDown(name)}
                        isDisabled={index === layout.order.length - 1}
                        onPress={() => move(field, 1)}
                      >
                        <span aria-hidden="true">↓</span>
                      </Button>
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
          <Button className="button" isDisabled={!stored} onPress={() => setLayout(undefined)}>
            {labels.reset}
          </Button>
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
