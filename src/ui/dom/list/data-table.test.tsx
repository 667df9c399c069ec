import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { DataTable, type DataTableLabels, type ListColumn } from './data-table';

interface Item {
  id: string;
  name: string;
  type: string;
}

const labels: DataTableLabels = {
  table: 'Assets',
  actions: 'Actions',
  dragHandle: (name) => `Drag ${name}`,
  loading: 'Loading',
  noItems: 'No items found',
  noMatches: 'No listings matched your search query',
  clearFilters: 'Clear Filters',
  loadingMore: 'Loading more',
};
const columns: ListColumn<Item>[] = [
  { field: 'name', headerName: 'Name', sortable: true, tooltip: 'The display name' },
  { field: 'type', headerName: 'Type', sortable: true, cellAlign: 'right' },
];
const rows: Item[] = [
  { id: 'a', name: 'Aviator', type: 'glasses' },
  { id: 'b', name: 'Beanie', type: 'headwear' },
];

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

describe('DataTable', () => {
  it('renders rows and marks the sorted column with aria-sort', () => {
    render(
      <DataTable
        columns={columns}
        rows={rows}
        labels={labels}
        rowLabel={(r) => r.name}
        order={{ name: 'desc' }}
        onSort={vi.fn()}
      />,
    );
    expect(screen.getByRole('grid', { name: 'Assets' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(screen.getByRole('columnheader', { name: /Type/ })).toHaveAttribute('aria-sort', 'none');
    expect(screen.getByRole('rowheader', { name: 'Aviator' })).toBeInTheDocument();
  });

  it('asks to sort when a sortable header is pressed', async () => {
    const onSort = vi.fn();
    render(
      <DataTable
        columns={columns}
        rows={rows}
        labels={labels}
        rowLabel={(r) => r.name}
        onSort={onSort}
      />,
    );
    await userEvent.click(screen.getByRole('columnheader', { name: /Type/ }));
    expect(onSort).toHaveBeenCalledWith('type');
  });

  it('shows as many skeleton rows as the page limit while loading', () => {
    const { container } = render(
      <DataTable
        columns={columns}
        rows={[]}
        labels={labels}
        rowLabel={(r) => r.name}
        isLoading
        skeletonRows={7}
        showProgress
      />,
    );
    expect(container.querySelectorAll('.skeleton-row')).toHaveLength(7);
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
  });

  it('says "No items found" when the list is empty without filters', () => {
    render(<DataTable columns={columns} rows={[]} labels={labels} rowLabel={(r) => r.name} />);
    expect(screen.getByText('No items found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).not.toBeInTheDocument();
  });

  it('offers Clear Filters when filters match nothing', async () => {
    const onClear = vi.fn();
    render(
      <DataTable
        columns={columns}
        rows={[]}
        labels={labels}
        rowLabel={(r) => r.name}
        isFiltered
        onClearFilters={onClear}
      />,
    );
    expect(screen.getByText('No listings matched your search query')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(onClear).toHaveBeenCalled();
  });

  it('opens a row menu with nested submenus from the keyboard and runs the action', async () => {
    const user = userEvent.setup();
    const onLock = vi.fn();
    const onSetOrder = vi.fn();
    render(
      <DataTable
        columns={columns}
        rows={rows}
        labels={labels}
        rowLabel={(r) => r.name}
        onSetOrder={onSetOrder}
        rowActions={() => [
          { title: 'Lock', onAction: onLock },
          {
            type: 'submenu',
            title: 'Move',
            subMenuItems: [{ type: 'setOrder', title: 'Move to top', value: 1 }],
          },
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Actions: Beanie' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Lock' }));
    expect(onLock).toHaveBeenCalledWith(rows[1]);

    await user.click(screen.getByRole('button', { name: 'Actions: Aviator' }));
    const move = await screen.findByRole('menuitem', { name: /Move/ });
    move.focus();
    await user.keyboard('{ArrowRight}');
    await user.click(await screen.findByRole('menuitem', { name: 'Move to top' }));
    expect(onSetOrder).toHaveBeenCalledWith(rows[0], 1);
  });

  it('puts a labelled drag handle on the first cell when reordering is on', () => {
    render(
      <DataTable
        columns={columns}
        rows={rows}
        labels={labels}
        rowLabel={(r) => r.name}
        onMove={vi.fn()}
      />,
    );
    const first = screen.getAllByRole('row')[1]!;
    expect(within(first).getByRole('button', { name: 'Drag Aviator' })).toBeInTheDocument();
  });
});

describe('DataTable row menu dialogs', () => {
  it('asks before a confirmed action and runs it only on confirm', async () => {
    const user = userEvent.setup();
    const onDelete = vi.fn();
    render(
      <DataTable
        columns={columns}
        rows={rows}
        labels={labels}
        rowLabel={(r) => r.name}
        rowActions={() => [
          {
            title: 'Delete',
            confirm: { title: 'Delete it?', body: 'No undo.', confirmLabel: 'Delete now' },
            onAction: onDelete,
          },
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Actions: Aviator' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete it?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onDelete).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Actions: Aviator' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await user.click(await screen.findByRole('button', { name: 'Delete now' }));
    expect(onDelete).toHaveBeenCalledWith(rows[0]);
  });

  it('asks for a text and hands it to the action', async () => {
    const user = userEvent.setup();
    const onRename = vi.fn();
    render(
      <DataTable
        columns={columns}
        rows={rows}
        labels={labels}
        rowLabel={(r) => r.name}
        rowActions={(row) => [
          {
            title: 'Rename',
            prompt: {
              title: 'Rename it',
              label: 'New name',
              defaultValue: row.name,
              confirmLabel: 'Save',
            },
            onAction: onRename,
          },
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Actions: Beanie' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const field = await screen.findByRole('textbox', { name: 'New name' });
    expect(field).toHaveValue('Beanie');
    await user.clear(field);
    await user.type(field, 'Bobble hat');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onRename).toHaveBeenCalledWith(rows[1], 'Bobble hat');
  });

  it('asks for a position when a move item has none', async () => {
    const user = userEvent.setup();
    const onSetOrder = vi.fn();
    render(
      <DataTable
        columns={columns}
        rows={rows}
        labels={labels}
        rowLabel={(r) => r.name}
        onSetOrder={onSetOrder}
        rowActions={() => [{ type: 'setOrder', title: 'Move to position…' }]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Actions: Beanie' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Move to position…' }));
    const field = await screen.findByRole('textbox', { name: 'Position' });
    await user.clear(field);
    await user.type(field, '7');
    await user.click(screen.getByRole('button', { name: 'Move' }));
    expect(onSetOrder).toHaveBeenCalledWith(rows[1], 7);
  });
});
