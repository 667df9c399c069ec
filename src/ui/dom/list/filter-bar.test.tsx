import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ListFilter } from '../../../../contract/list-query';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { FilterBar, filterBarLabels, initialValuesOf, type FilterDef } from './filter-bar';

// The product's own texts, as the list screen passes them.
const labelsOf = () => filterBarLabels(i18next.t.bind(i18next));
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

function Harness({
  onApply = vi.fn(),
  onChange = vi.fn(),
  defs = filters,
}: {
  onApply?: (v: ListFilter) => void;
  onChange?: (field: string, value: unknown) => void;
  defs?: FilterDef[];
}) {
  const [values, setValues] = useState<ListFilter>({});
  return (
    <>
      <FilterBar
        filters={defs}
        values={values}
        onChange={(field, value) => {
          onChange(field, value);
          setValues((v) => ({ ...v, [field]: value }));
        }}
        onApply={(next) => {
          onApply(next);
          setValues(next);
        }}
        onClear={() => setValues({})}
        setCount={
          Object.values(values).filter((v) => (Array.isArray(v) ? v.length > 0 : Boolean(v))).length
        }
        labels={labelsOf()}
        renderAutocomplete={() => null}
      />
      <output data-testid="values">{JSON.stringify(values)}</output>
    </>
  );
}

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('FilterBar on a desktop', () => {
  it('a date filter is a labelled date input whose day is the value, and clears to none', () => {
    setViewport(false);
    render(<Harness defs={[{ field: 'from', type: 'date', label: 'From' }]} />);
    const input = screen.getByLabelText('From');
    expect(input).toHaveAttribute('type', 'date');
    fireEvent.change(input, { target: { value: '2026-11-24' } });
    expect(JSON.parse(screen.getByTestId('values').textContent)).toEqual({ from: '2026-11-24' });
    expect(input).toHaveValue('2026-11-24');
    fireEvent.change(input, { target: { value: '' } });
    expect(JSON.parse(screen.getByTestId('values').textContent)).toEqual({ from: '' });
  });

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
    await waitFor(() => expect(screen.getByTestId('values').textContent).toContain('cap'));
    await user.click(screen.getByRole('button', { name: /Type/ }));
    await user.click(await screen.findByRole('option', { name: 'Top' }));
    expect(JSON.parse(screen.getByTestId('values').textContent)).toEqual({
      search: 'cap',
      type: ['top'],
    });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'Clear Filters' }));
    expect(screen.getByTestId('values').textContent).toBe('{}');
  });
  it('keeps typing inside the search field, and hands the text on once the typing pauses', async () => {
    setViewport(false);
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const search = screen.getByRole('searchbox', { name: 'Search' });
    // Ten keys at once (the e2e types them at a person's pace): the list hears nothing yet.
    for (let length = 1; length <= 10; length++) {
      fireEvent.change(search, { target: { value: 'boots and '.slice(0, length) } });
    }
    expect(search).toHaveValue('boots and ');
    expect(onChange).not.toHaveBeenCalled();
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(onChange.mock.calls).toEqual([['search', 'boots and ']]);
    // Enter hands on at once; the echo of the value does not undo what was typed since.
    await user.type(search, 'hats{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('search', 'boots and hats');
    expect(search).toHaveValue('boots and hats');
    // Set from outside (Clear Filters), the field shows the new value.
    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(search).toHaveValue('');
  });

  it('puts each filter on its side: left by default, right when it says so', () => {
    setViewport(false);
    const { container } = render(<Harness />);
    const left = container.querySelector('.filter-side.left') as HTMLElement;
    const right = container.querySelector('.filter-side.right') as HTMLElement;
    expect(within(left).getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
    expect(within(left).getByText('Type')).toBeInTheDocument();
    expect(within(right).getByText('Gender')).toBeInTheDocument();
    expect(within(left).queryByText('Gender')).not.toBeInTheDocument();
  });

  it('names the search box\'s clear button "Clear", or its clearButtonText', async () => {
    setViewport(false);
    const user = userEvent.setup();
    const { unmount } = render(<Harness />);
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'cap');
    expect(screen.getByRole('button', { name: 'Clear' })).toBeInTheDocument();
    unmount();
    render(
      <Harness
        defs={[{ field: 'search', type: 'text', label: 'Search', clearButtonText: 'Reset' }]}
      />,
    );
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'cap');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  });
});

describe('what each filter shows (spec §3 icon, value, placeholder, preselectValue)', () => {
  const defs: FilterDef[] = [
    { field: 'search', type: 'text', label: 'Search', icon: <svg data-testid="icon-search" /> },
    {
      field: 'type',
      type: 'multi-select',
      label: 'Type',
      icon: <svg data-testid="icon-type" />,
      options: [
        { value: 'hair', label: 'Hair' },
        { value: 'top', label: 'Top' },
      ],
    },
    {
      field: 'locked',
      type: 'single-select',
      label: 'Lock',
      icon: <svg data-testid="icon-lock" />,
      options: [
        { value: 'true', label: 'Locked' },
        { value: 'false', label: 'Unlocked' },
      ],
    },
  ];

  it("shows each filter's icon beside its label", () => {
    setViewport(false);
    render(<Harness defs={defs} />);
    const icons: [string, string][] = [
      ['Search', 'icon-search'],
      ['Type', 'icon-type'],
      ['Lock', 'icon-lock'],
    ];
    for (const [name, icon] of icons) {
      const label = screen.getByText(name, { selector: 'label, span' });
      expect(within(label).getByTestId(icon)).toBeInTheDocument();
    }
  });

  it('says "Any" while a select is empty, and a single-select can go back to "Any"', async () => {
    setViewport(false);
    const user = userEvent.setup();
    render(<Harness defs={defs} />);
    const lock = screen.getByRole('button', { name: /Lock/ });
    expect(lock).toHaveTextContent('Any');
    await user.click(lock);
    await user.click(await screen.findByRole('option', { name: 'Locked' }));
    expect(JSON.parse(screen.getByTestId('values').textContent)).toEqual({ locked: 'true' });
    expect(screen.getByRole('button', { name: /Lock/ })).toHaveTextContent('Locked');
    await user.click(screen.getByRole('button', { name: /Lock/ }));
    await user.click(await screen.findByRole('option', { name: 'Any' }));
    expect(screen.getByTestId('values').textContent).toBe('{}');
    expect(screen.getByRole('button', { name: /Lock/ })).toHaveTextContent('Any');
  });

  it('shows its placeholder while empty: in the search box, and in a select instead of "Any"', async () => {
    setViewport(false);
    const user = userEvent.setup();
    render(
      <Harness
        defs={[
          { ...defs[0]!, placeholder: 'Name or id' },
          { ...defs[1]!, placeholder: 'Every type' },
          defs[2]!,
        ]}
      />,
    );
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveAttribute(
      'placeholder',
      'Name or id',
    );
    const type = screen.getByRole('button', { name: /Type/ });
    expect(type).toHaveTextContent('Every type');
    // A filter without one says "Any".
    expect(screen.getByRole('button', { name: /Lock/ })).toHaveTextContent('Any');
    await user.click(type);
    await user.click(await screen.findByRole('option', { name: 'Hair' }));
    await user.keyboard('{Escape}');
    expect(type).toHaveTextContent('Hair');
    expect(type).not.toHaveTextContent('Every type');
  });

  it('offers no "Any" when the filter always holds a value (preselectValue)', async () => {
    setViewport(false);
    const user = userEvent.setup();
    render(<Harness defs={[{ ...defs[2]!, preselectValue: 'false' }]} />);
    await user.click(screen.getByRole('button', { name: /Lock/ }));
    await screen.findByRole('option', { name: 'Locked' });
    expect(screen.queryByRole('option', { name: 'Any' })).not.toBeInTheDocument();
  });

  it("starts the list's filter from the filters' initial values, leaving empty ones out", () => {
    expect(
      initialValuesOf([
        { ...defs[0]!, value: 'cap' },
        { ...defs[1]!, value: ['hair'] },
        { ...defs[2]!, value: '' },
      ]),
    ).toEqual({ search: 'cap', type: ['hair'] });
  });
});

describe('FilterBar on a phone', () => {
  it('offers no All Filters when every filter already shows (a search-only list)', () => {
    setViewport(true);
    render(
      <FilterBar
        filters={[filters[0]!, filters[3]!]}
        values={{}}
        onChange={vi.fn()}
        onApply={vi.fn()}
        onClear={vi.fn()}
        setCount={0}
        labels={labelsOf()}
        renderAutocomplete={() => null}
      />,
    );
    expect(screen.getByRole('searchbox', { name: 'Search' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /All Filters/ })).not.toBeInTheDocument();
  });

  it('counts on All Filters the filters set beyond the preselected ones, as it is told', () => {
    setViewport(true);
    const bar = (setCount: number) => (
      <FilterBar
        filters={filters}
        values={{ gender: 'male', search: 'cap' }}
        onChange={vi.fn()}
        onApply={vi.fn()}
        onClear={vi.fn()}
        setCount={setCount}
        labels={labelsOf()}
        renderAutocomplete={() => null}
      />
    );
    const { rerender } = render(bar(0));
    expect(screen.getByRole('button', { name: 'All Filters' })).toHaveTextContent(/^All Filters$/);
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).not.toBeInTheDocument();
    rerender(bar(1));
    expect(screen.getByRole('button', { name: /^All Filters\s*1$/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear Filters' })).toBeInTheDocument();
  });

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
