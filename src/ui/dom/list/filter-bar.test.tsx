import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilterBar, type FilterDef, type FilterValues } from './filter-bar';

const labels = {
  filters: 'Filters',
  allFilters: 'All Filters',
  apply: 'Apply',
  cancel: 'Cancel',
  clear: 'Clear filters',
  any: 'Any',
};
const filters: FilterDef[] = [
  { field: 'search', type: 'text', label: 'Search', visibleOnMobile: true },
  {
    field: 'type',
    type: 'multi-select',
    label: 'Type',
    options: [
      { value: 'hair', label: 'Hair' },
      { value: 'top', label: 'Top' },
    ],
  },
  {
    field: 'gender',
    type: 'single-select',
    label: 'Gender',
    position: 'right',
    options: [{ value: 'male', label: 'Male' }],
  },
  {
    field: 'only',
    type: 'single-select',
    label: 'Only one',
    hiddenWithOneOption: true,
    options: [{ value: 'x', label: 'X' }],
  },
];

function setViewport(mobile: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: mobile,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

function Harness({ onApply = vi.fn() }: { onApply?: (v: FilterValues) => void }) {
  const [values, setValues] = useState<FilterValues>({});
  return (
    <>
      <FilterBar
        filters={filters}
        values={values}
        onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))}
        onApply={(next) => {
          onApply(next);
          setValues(next);
        }}
        onClear={() => setValues({})}
        isActive={Object.values(values).some((v) => (Array.isArray(v) ? v.length > 0 : Boolean(v)))}
        labels={labels}
        renderAutocomplete={() => null}
      />
      <output data-testid="values">{JSON.stringify(values)}</output>
    </>
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FilterBar on a desktop', () => {
  it('shows every filter except one hidden for having a single option', () => {
    setViewport(false);
    render(<Harness />);
    const bar = screen.getByRole('search', { name: 'Filters' });
    expect(within(bar).getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
    expect(within(bar).getByText('Type')).toBeInTheDocument();
    expect(within(bar).getByText('Gender')).toBeInTheDocument();
    expect(within(bar).queryByText('Only one')).not.toBeInTheDocument();
    expect(within(bar).queryByRole('button', { name: 'All Filters' })).not.toBeInTheDocument();
  });

  it('reports text and multi-select changes, then clears them', async () => {
    setViewport(false);
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'cap');
    await user.click(screen.getByRole('button', { name: /Type/ }));
    await user.click(await screen.findByRole('option', { name: 'Top' }));
    expect(JSON.parse(screen.getByTestId('values').textContent)).toEqual({
      search: 'cap',
      type: ['top'],
    });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'Clear filters' }));
    expect(screen.getByTestId('values').textContent).toBe('{}');
  });
});

describe('FilterBar on a phone', () => {
  it('shows only mobile filters and keeps overlay edits until Apply', async () => {
    setViewport(true);
    const user = userEvent.setup();
    const onApply = vi.fn();
    render(<Harness onApply={onApply} />);
    expect(screen.getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
    expect(screen.queryByText('Gender')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'All Filters' }));
    const dialog = await screen.findByRole('dialog', { name: 'All Filters' });
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search' }), 'boots');
    // Nothing applies while the overlay is open.
    expect(screen.getByTestId('values').textContent).toBe('{}');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('values').textContent).toBe('{}');

    await user.click(screen.getByRole('button', { name: 'All Filters' }));
    const again = await screen.findByRole('dialog', { name: 'All Filters' });
    expect(within(again).getByRole('searchbox', { name: 'Search' })).toHaveValue('');
    await user.type(within(again).getByRole('searchbox', { name: 'Search' }), 'boots');
    await user.click(within(again).getByRole('button', { name: 'Apply' }));
    expect(onApply).toHaveBeenCalledWith({ search: 'boots' });
    expect(JSON.parse(screen.getByTestId('values').textContent)).toEqual({ search: 'boots' });
  });
});
