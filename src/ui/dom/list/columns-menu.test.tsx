import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { ColumnLayoutUser, type ColumnLayout } from './column-layout';
import type { ListColumn } from './columns';
import { ColumnsMenu, columnsMenuLabels } from './columns-menu';
import { DataTable } from './data-table';
import { dataTableLabels } from './data-table-labels';

interface Item {
  id: string;
  name: string;
  type: string;
  owner: string;
}

const columns: ListColumn<Item>[] = [
  { field: 'name', headerName: 'Name', sortable: true },
  { field: 'type', headerName: 'Type', width: 120 },
  { field: 'owner', headerName: 'Owner' },
];
const rows: Item[] = [{ id: 'a', name: 'Aviator', type: 'glasses', owner: 'Ada' }];
const KEY = 'avatar-studio:columns:u1:assets';

/** A list screen's toolbar button and its table, as the signed-in user u1 sees them. */
function Screen({ onSort }: { onSort?: (field: string) => void }) {
  const t = i18next.t.bind(i18next);
  return (
    <ColumnLayoutUser value="u1">
      <ColumnsMenu listKey="assets" columns={columns} labels={columnsMenuLabels(t)} />
      <DataTable
        columns={columns}
        layoutKey="assets"
        {...(onSort ? { onSort } : {})}
        rows={rows}
        labels={dataTableLabels(t, 'Assets')}
        rowLabel={(r) => r.name}
      />
    </ColumnLayoutUser>
  );
}

const headers = () =>
  // The open dialog hides the page from assistive technology: the headers are looked at anyway.
  screen
    .getAllByRole('columnheader', { hidden: true })
    .map((h) => h.querySelector('.column-header')?.textContent);
const open = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
  return screen.getByRole('dialog', { name: 'Columns' });
};

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});
afterEach(() => localStorage.clear());

describe('Columns', () => {
  it('hides and shows a column, but never the name column', async () => {
    render(<Screen />);
    const dialog = await open();
    expect(within(dialog).getByRole('checkbox', { name: /Name/ })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Type' }));
    expect(headers()).toEqual(['Name', 'Owner']);
    expect(screen.queryByRole('gridcell', { name: 'glasses', hidden: true })).toBeNull();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Type' }));
    expect(headers()).toEqual(['Name', 'Type', 'Owner']);
  });

  it('orders the columns with the keyboard, the focus going with the column moved', async () => {
    render(<Screen />);
    const dialog = await open();
    expect(within(dialog).getByRole('button', { name: 'Move Type up' })).toBeDisabled();
    within(dialog).getByRole('button', { name: 'Move Owner up' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(headers()).toEqual(['Name', 'Owner', 'Type']);
    expect(screen.getAllByRole('gridcell', { hidden: true }).map((c) => c.textContent)).toEqual([
      'Ada',
      'glasses',
    ]);
    // Owner is second now, as high as it goes: the focus goes to its other button.
    expect(within(dialog).getByRole('button', { name: 'Move Owner down' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(headers()).toEqual(['Name', 'Type', 'Owner']);
  });

  it('resizes a column from its edge with the keyboard', async () => {
    render(<Screen />);
    // Resizable once the table measured its first rows' content.
    await screen.findByRole('slider', { name: /Resize Type/ });
    const type = screen.getByRole('columnheader', { name: /Type/ });
    expect(type.style.width).toBe('120px');
    // From the rows up to the Name header, then right along the headers: a name, its edge.
    await userEvent.tab();
    await userEvent.tab();
    await userEvent.keyboard('{ArrowUp}{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(within(type).getByRole('slider', { name: /Resize Type/ })).toHaveFocus();
    await userEvent.keyboard('{Enter}{ArrowRight}{ArrowRight}{Enter}');
    expect(screen.getByRole('columnheader', { name: /Type/ }).style.width).toBe('140px');
    expect((JSON.parse(localStorage.getItem(KEY) ?? '{}') as ColumnLayout).widths).toMatchObject({
      type: 140,
    });
  });

  it('still sorts from the keyboard: Enter on the name in a header', async () => {
    const onSort = vi.fn();
    render(<Screen onSort={onSort} />);
    await userEvent.tab();
    await userEvent.tab();
    await userEvent.keyboard('{ArrowUp}{Enter}');
    expect(onSort).toHaveBeenCalledWith('name');
  });

  it('remembers the layout for the user and the list, and resets it', async () => {
    const first = render(<Screen />);
    const dialog = await open();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Owner' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move Type down' }));
    first.unmount();

    render(<Screen />);
    expect(headers()).toEqual(['Name', 'Type']);
    const again = await open();
    expect(within(again).getByRole('checkbox', { name: 'Owner' })).not.toBeChecked();
    await userEvent.click(within(again).getByRole('button', { name: 'Reset columns' }));
    expect(headers()).toEqual(['Name', 'Type', 'Owner']);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(within(again).getByRole('button', { name: 'Reset columns' })).toBeDisabled();
  });

  it('repairs a stored layout that names columns the list does not have', () => {
    localStorage.setItem(
      KEY,
      JSON.stringify({ order: ['gone', 'owner', 'name'], hidden: ['name'], widths: { gone: 90 } }),
    );
    render(<Screen />);
    // Type, which it leaves out, comes back at its default place.
    expect(headers()).toEqual(['Name', 'Type', 'Owner']);
  });
});
