import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { enBackOffice } from '../../../locales/en-back-office';
import { DataTable, type DataTableLabels, type ListColumn } from './data-table';

interface Item {
  id: string;
  name: string;
  type: string;
}

// The product's own texts (the list screen passes these through i18n).
const { list: text } = enBackOffice;
const labels: DataTableLabels = {
  table: 'Assets',
  actions: text.actions,
  dragHandle: (name) => text.dragHandle.replace('{{name}}', name),
  loading: text.loading,
  noItems: text.noItems,
  noMatches: text.noMatches,
  clearFilters: text.clearFilters,
  loadingMore: text.loadingMore,
};
const columns: ListColumn<Item>[] = [
  { field: 'name', headerName: 'Name', sortable: true, tooltip: 'The display name' },
  { field: 'type', headerName: 'Type', sortable: true, cellAlign: 'right' },
];
const rows: Item[] = [
  { id: 'a', name: 'Aviator', type: 'glasses' },
  { id: 'b', name: 'Beanie', type: 'headwear' },
];

/** The table of the two items with the product's labels; the test adds what it checks. */
function Table(props: Partial<Parameters<typeof DataTable<Item>>[0]>) {
  return (
    <DataTable columns={columns} rows={rows} labels={labels} rowLabel={(r) => r.name} {...props} />
  );
}

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

describe('DataTable', () => {
  it('renders rows and marks the sorted column with aria-sort', () => {
    render(<Table order={{ name: 'desc' }} onSort={vi.fn()} />);
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
    render(<Table onSort={onSort} />);
    await userEvent.click(screen.getByRole('columnheader', { name: /Type/ }));
    expect(onSort).toHaveBeenCalledWith('type');
  });

  it('shows as many skeleton rows as the page limit while loading', () => {
    const { container } = render(<Table rows={[]} isLoading skeletonRows={7} showProgress />);
    expect(container.querySelectorAll('.skeleton-row')).toHaveLength(7);
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
  });

  it('says "No items found" when the list is empty without filters', () => {
    render(<Table rows={[]} />);
    expect(screen.getByText('No items found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).not.toBeInTheDocument();
  });

  it('offers Clear Filters when filters match nothing', async () => {
    const onClear = vi.fn();
    render(<Table rows={[]} isFiltered onClearFilters={onClear} />);
    expect(screen.getByText('No listings matched your search query')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(onClear).toHaveBeenCalled();
  });

  it('opens a row menu with nested submenus from the keyboard and runs the action', async () => {
    const user = userEvent.setup();
    const onLock = vi.fn();
    const onSetOrder = vi.fn();
    render(
      <Table
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
    render(<Table onMove={vi.fn()} />);
    const first = screen.getAllByRole('row')[1]!;
    expect(
      within(first).getByRole('button', { name: 'Drag to reorder Aviator' }),
    ).toBeInTheDocument();
  });
});

describe('DataTable row menu dialogs', () => {
  it('asks before a confirmed action and runs it only on confirm', async () => {
    const user = userEvent.setup();
    const onDelete = vi.fn();
    render(
      <Table
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
      <Table
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
      <Table
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
  it("shows a column's width, header and cell alignment, and its header tooltip", () => {
    render(
      <DataTable
        columns={[
          {
            field: 'name',
            headerName: 'Name',
            width: 240,
            headerAlign: 'center',
            tooltip: 'The display name',
          },
          { field: 'type', headerName: 'Type', headerAlign: 'right', cellAlign: 'right' },
        ]}
        rows={rows}
        labels={labels}
        rowLabel={(r) => r.name}
      />,
    );
    const name = screen.getByRole('columnheader', { name: /Name/ });
    expect(name).toHaveClass('align-center');
    expect(name.querySelector('[title="The display name"]')).not.toBeNull();
    expect(name).toHaveAccessibleName('Name, The display name');
    expect(name.style.width).toBe('240px');
    expect(screen.getByRole('columnheader', { name: 'Type' })).toHaveClass('align-right');
    expect(screen.getByRole('gridcell', { name: 'glasses' })).toHaveClass('align-right');
    expect(screen.getByRole('rowheader', { name: 'Aviator' })).toHaveClass('align-left');
  });

  it('shows an action item in its colour, with its icon, and disabled when it says so', async () => {
    const user = userEvent.setup();
    const onDelete = vi.fn();
    render(
      <Table
        rowActions={() => [
          { title: 'Lock', icon: <span data-testid="lock-icon">🔒</span>, onAction: vi.fn() },
          { title: 'Delete', color: 'danger', isDisabled: true, onAction: onDelete },
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Actions: Aviator' }));
    const lock = await screen.findByRole('menuitem', { name: /Lock/ });
    expect(within(lock).getByTestId('lock-icon')).toBeInTheDocument();
    expect(lock).not.toHaveClass('danger');
    const remove = screen.getByRole('menuitem', { name: 'Delete' });
    expect(remove).toHaveClass('danger');
    expect(remove).toHaveAttribute('aria-disabled', 'true');
    await user.click(remove);
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('selects rows with their checkboxes, and the whole page with the header one', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const selection = {
      selectedIds: ['b'],
      onChange,
      selectAllLabel: 'Select all on this page',
      selectLabel: 'Select',
    };
    render(<Table selection={selection} />);
    expect(screen.getByRole('checkbox', { name: 'Select Beanie' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Aviator' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Select Aviator' }));
    expect(onChange).toHaveBeenLastCalledWith(expect.arrayContaining(['a', 'b']));
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(onChange).toHaveBeenLastCalledWith(expect.arrayContaining(['a', 'b']));
  });
});
