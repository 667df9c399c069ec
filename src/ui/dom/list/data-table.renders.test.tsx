import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toggleSort, type ListOrder } from '../../../../contract/list-query';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { renderCounter } from '../testing/count-renders';
import { badgeCell } from './cells';
import type { ListColumn } from './columns';
import { DataTable } from './data-table';
import { dataTableLabels } from './data-table-labels';

interface Item {
  id: string;
  name: string;
  type: string;
}

/** The rows whose Type cell was drawn (its renderer ran), in order. */
let typeCellsDrawn: string[] = [];
const columns: ListColumn<Item>[] = [
  { field: 'name', headerName: 'Name', sortable: true },
  {
    field: 'type',
    headerName: 'Type',
    sortable: true,
    render: (row) => {
      typeCellsDrawn.push(row.id);
      return badgeCell(row.type);
    },
  },
];
const items: Item[] = Array.from({ length: 10 }, (_, i) => ({
  id: `item-${i}`,
  name: `Item ${i}`,
  type: i % 2 ? 'glasses' : 'headwear',
}));
const rowLabel = (row: Item) => row.name;
const rowActions = () => [{ title: 'Edit', onAction: () => undefined }];

/**
 * Ten rows as a list screen shows them (selectable, sortable, a menu per row), with the props
 * its owner keeps stable (list.parts.view.tsx); a sort shows the same row objects reordered.
 * With a `layoutKey` its columns resize, as the assets list's do.
 */
function Screen({ layoutKey }: { layoutKey?: string }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [order, setOrder] = useState<ListOrder>({ name: 'asc' });
  const [labels] = useState(() => dataTableLabels(i18next.t.bind(i18next), 'Assets'));
  const [onChange] = useState(() => (ids: string[]) => setSelected(new Set(ids)));
  const [onSort] = useState(() => (field: string) => setOrder((o) => toggleSort(o, field)));
  const rows = Object.values(order)[0] === 'desc' ? [...items].reverse() : items;
  return (
    <DataTable
      columns={columns}
      rows={rows}
      labels={labels}
      rowLabel={rowLabel}
      rowActions={rowActions}
      order={order}
      onSort={onSort}
      selection={{ selectedIds: selected, onChange }}
      {...(layoutKey ? { layoutKey } : {})}
    />
  );
}

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

describe('DataTable renders', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** How many Type cells a table of the ten items draws until it settles. */
  async function cellsDrawnBy(layoutKey: string | undefined) {
    typeCellsDrawn = [];
    const view = render(<Screen layoutKey={layoutKey} />);
    await screen.findByRole('rowheader', { name: 'Item 9' });
    // Resizable columns come with the widths measured from the first rows (a second table).
    await waitFor(() =>
      expect(document.querySelectorAll('[role="rowheader"]').length).toBe(items.length),
    );
    const resizable = Boolean(document.querySelector('.data-table-resizable'));
    view.unmount();
    return { drawn: typeCellsDrawn.length, resizable };
  }

  it('draws the rows once on a phone, where rows are cards: no columns measured or resized', async () => {
    const wide = await cellsDrawnBy('renders-phone');
    const fixed = await cellsDrawnBy(undefined);
    expect(wide.resizable).toBe(true);
    expect(wide.drawn).toBeGreaterThan(fixed.drawn);
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 767px)',
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    expect(await cellsDrawnBy('renders-phone')).toEqual({ drawn: fixed.drawn, resizable: false });
  });

  it.each([
    ['fixed', undefined],
    ['resizable', 'renders-test'],
  ])(
    'renders no row again for a press on the table that changes nothing (%s columns)',
    async (_, layoutKey) => {
      const counter = renderCounter();
      render(counter.wrap(<Screen layoutKey={layoutKey} />));
      // Resizable columns come with the widths measured from the first rows.
      await waitFor(() =>
        expect(Boolean(document.querySelector('.data-table-resizable'))).toBe(Boolean(layoutKey)),
      );
      const area = screen.getByRole('grid').closest('.data-table-container')!;
      // The first press anywhere tells React Aria a pointer is in use (its focus rings read
      // that): the table renders for it once.
      fireEvent.pointerDown(document.body);
      fireEvent.pointerUp(document.body);
      counter.reset();
      // The rows are held while a pointer is down on the table's area (a search answer must not
      // move them): holding them changes nothing on screen. (A press on a row itself moves React
      // Aria's focus there, which its every row renders for.)
      fireEvent.pointerDown(area);
      fireEvent.pointerUp(window);
      expect(counter.rows()).toEqual(new Set());
      // Nor the table around them, nor the container: the table's owner alone renders.
      expect(counter.byName()).toEqual({ DataTableView: 1 });
    },
  );

  /** The list's rows (not the header) React Aria rendered again since the last reset. */
  const rowsRendered = (counter: ReturnType<typeof renderCounter>) =>
    [...counter.rows('TableRowElementType')].filter((key) => key.startsWith('item-')).sort();

  it('renders only the rows whose selection or focus changed for a selection, no menu button and no column header', async () => {
    const counter = renderCounter();
    render(counter.wrap(<Screen layoutKey="renders-select" />));
    await waitFor(() => expect(document.querySelector('.data-table-resizable')).not.toBeNull());
    await userEvent.click(screen.getByRole('checkbox', { name: /Item 2/ }));
    counter.reset();
    await userEvent.click(screen.getByRole('checkbox', { name: /Item 4/ }));
    expect(screen.getByRole('checkbox', { name: /Item 4/ })).toBeChecked();
    // The row pressed (its focus, its selection) and the row the focus left.
    expect(rowsRendered(counter)).toEqual(['item-2', 'item-4']);
    // A row's menu button takes nothing from its row: it renders only when its own menu does.
    expect(counter.byName().Button).toBeUndefined();
    // Nor does a column header: a selection changes none (the select-all box follows it alone).
    expect(counter.byName().ColumnElementType).toBeUndefined();
  }, 60_000);

  it("renders only the menu's row when a row menu opens, and no column header", async () => {
    const counter = renderCounter();
    render(counter.wrap(<Screen layoutKey="renders-menu" />));
    await waitFor(() => expect(document.querySelector('.data-table-resizable')).not.toBeNull());
    counter.reset();
    await userEvent.click(screen.getByRole('button', { name: /Actions: Item 5/ }));
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    expect(rowsRendered(counter)).toEqual(['item-5']);
    expect(counter.byName().ColumnElementType).toBeUndefined();
  }, 60_000);

  it("adds to the selection from a row that has not rendered since it changed (a screen reader's click)", async () => {
    render(<Screen />);
    await userEvent.click(screen.getByRole('checkbox', { name: /Item 2/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Item 4/ }));
    // A screen reader activates a checkbox with a click alone, without a press or focus first:
    // the row of Item 6 last rendered when Item 2 was selected, and adds to today's selection.
    fireEvent.click(screen.getByRole('checkbox', { name: /Item 6/ }));
    for (const name of [/Item 2/, /Item 4/, /Item 6/]) {
      expect(screen.getByRole('checkbox', { name })).toBeChecked();
    }
  }, 60_000);

  it('draws no cell again when a sort only reorders the rows, nor for a selection', async () => {
    const counter = renderCounter();
    render(counter.wrap(<Screen />));
    typeCellsDrawn = [];
    await userEvent.click(screen.getByRole('columnheader', { name: /Name/ }));
    expect(screen.getAllByRole('rowheader')[0]).toHaveTextContent('Item 9');
    await userEvent.click(screen.getByRole('checkbox', { name: /Item 4/ }));
    expect(screen.getByRole('checkbox', { name: /Item 4/ })).toBeChecked();
    expect(typeCellsDrawn).toEqual([]);
    // Two clicks through React Aria in jsdom on two busy cores.
  }, 60_000);
});
