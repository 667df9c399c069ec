// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memo, type ComponentProps } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { configureHttp } from '../api/http';
import { defineList } from '../api/list-url';
import { queryClient } from '../api/query';
import { jsonResponse } from '../api/testing';
import { initI18n, loadBackOfficeTexts } from '../i18n';
import { ListScreen, type ListScreenConfig } from './list.view';
import { loadPermissions } from './permissions.view';
import { renderScreen, stubWideScreen } from './testing/render-screen.view';

// Each piece of the screen counts its renders; what it draws is the real one's.
const renders = vi.hoisted(() => ({ table: 0, filterBar: 0, pager: 0, total: 0 }));
vi.mock('../ui/dom/list/data-table', async (original) => {
  const real = await original<typeof import('../ui/dom/list/data-table')>();
  const Counted = memo(function Counted(props: ComponentProps<typeof real.DataTable>) {
    renders.table += 1;
    return <real.DataTable {...props} />;
  });
  return { ...real, DataTable: Counted };
});
vi.mock('../ui/dom/list/filter-bar', async (original) => {
  const real = await original<typeof import('../ui/dom/list/filter-bar')>();
  return {
    ...real,
    FilterBar: (props: ComponentProps<typeof real.FilterBar>) => {
      renders.filterBar += 1;
      return <real.FilterBar {...props} />;
    },
  };
});
vi.mock('../ui/dom/list/pager', async (original) => {
  const real = await original<typeof import('../ui/dom/list/pager')>();
  return {
    ...real,
    Pager: (props: ComponentProps<typeof real.Pager>) => {
      renders.pager += 1;
      return <real.Pager {...props} />;
    },
  };
});
vi.mock('../ui/dom/list/list-total', async (original) => {
  const real = await original<typeof import('../ui/dom/list/list-total')>();
  return {
    ...real,
    ListTotal: (props: ComponentProps<typeof real.ListTotal>) => {
      renders.total += 1;
      return <real.ListTotal {...props} />;
    },
  };
});

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => {
  queryClient.clear();
  stubWideScreen();
  configureHttp({
    baseUrl: 'http://api.test/',
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(new Request(input, init).url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const data = Array.from({ length: 10 }, (_, i) => ({
        id: `t${(page - 1) * 10 + i + 1}`,
        name: `Thing ${(page - 1) * 10 + i + 1}`,
      }));
      const pagination = { page, limit: 10, totalDocs: 30, totalPages: 3 };
      return Promise.resolve(
        jsonResponse(200, { data, pagination: { ...pagination, hasNextPage: page < 3 } }),
      );
    },
  });
});
afterEach(() => localStorage.clear());

interface Thing {
  id: string;
  name: string;
}

const list = defineList({ sortFields: ['name'], defaultOrder: { name: 'asc' } });
const things = (): ListScreenConfig<Thing> => ({
  ...list,
  title: 'Things',
  requires: ['read', 'Asset'],
  endpoint: 'v1/things',
  rowSchema: z.object({ id: z.string(), name: z.string() }),
  columns: [{ field: 'name', headerName: 'Name', sortable: true }],
  filters: [{ field: 'search', type: 'text', label: 'Search' }],
  rowLabel: (row) => row.name,
  bulkActions: (ids) => <p>{ids.length} chosen</p>,
});

const counted = () => ({ ...renders });
const reset = () => Object.assign(renders, { table: 0, filterBar: 0, pager: 0, total: 0 });

describe('what a list screen re-renders', { timeout: 20_000 }, () => {
  it('redraws only the rows when a row is selected: not the filters, the pagers or the total', async () => {
    const user = userEvent.setup();
    renderScreen(() => <ListScreen config={things} />, {
      address: '/',
      validateSearch: list.validateSearch,
    });
    // The table is drawn anew once its first rows have given the columns their widths.
    await screen.findByText('Thing 2');
    const grid = screen.getByRole('grid');
    reset();
    await user.click(within(grid).getAllByRole('checkbox')[2]!);
    await screen.findByText('1 chosen');
    const after = counted();
    expect(after.table).toBeGreaterThan(0);
    expect({ filterBar: after.filterBar, pager: after.pager, total: after.total }).toEqual({
      filterBar: 0,
      pager: 0,
      total: 0,
    });
  });

  it('leaves the filter bar alone on a sort and a page turn', async () => {
    const user = userEvent.setup();
    renderScreen(() => <ListScreen config={things} />, {
      address: '/',
      validateSearch: list.validateSearch,
    });
    // The table is drawn anew once its first rows have given the columns their widths.
    await screen.findByText('Thing 2');
    reset();
    await user.click(screen.getAllByRole('button', { name: 'Next' })[0]!);
    await within(await screen.findByRole('grid')).findByText('Thing 11');
    await user.click(screen.getByRole('columnheader', { name: /Name/ }));
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe(
        'descending',
      ),
    );
    await within(await screen.findByRole('grid')).findByText('Thing 1');
    expect(renders.filterBar).toBe(0);
  });
});
