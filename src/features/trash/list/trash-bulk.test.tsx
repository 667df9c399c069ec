import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod/mini';
import { afterEach, describe, expect, it } from 'vitest';
import type { BulkJob } from '../../../../contract/bulk-jobs';
import { defineList } from '../../../api/list-url';
import { setLiveStatus } from '../../../api/live-cache';
import {
  jsonResponse,
  sendBulkJobProgress,
  serveRequests,
  testBulkJob,
} from '../../../api/testing';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';
import { TRASH_KINDS } from '../../../../contract/schemas';
import { TrashList } from './trash-list';

setUpScreenTests();
afterEach(() => {
  setLiveStatus(null);
});

// As the Trash route declares it.
const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    kind: z.optional(z.array(z.enum(TRASH_KINDS))),
    deletedBy: z.optional(z.array(z.string())),
  }),
  sortFields: ['deletedAt', 'name', 'kind'],
  defaultOrder: { deletedAt: 'desc' },
});

const TOTAL = 2_500;
/** The Trash filtered to assets, as its address holds it. */
const TRASHED_ASSETS = `/?filter=${encodeURIComponent(JSON.stringify({ kind: ['asset'] }))}`;

const job = (changes: Partial<BulkJob> = {}): BulkJob =>
  testBulkJob({
    action: 'restore',
    list: 'trash',
    filter: { kind: ['asset'] },
    total: TOTAL,
    ...changes,
  });

/** A Trash of 2,500 trashed assets, paged; records the calls made. */
function serveTrash() {
  const asked: string[] = [];
  serveRequests(async (url, request) => {
    const body = request.method === 'POST' ? await request.text() : '';
    asked.push(`${request.method} ${url.pathname.slice(1)}${url.search} ${body}`.trim());
    if (request.method === 'POST' && url.pathname === '/v1/bulk-jobs') {
      return jsonResponse(201, { data: job() });
    }
    if (request.method === 'POST' && url.pathname === '/v1/bulk-jobs/job1/cancel') {
      return jsonResponse(200, { data: job({ state: 'cancelled', done: 500, changed: 500 }) });
    }
    if (url.pathname !== '/v1/trash') return jsonResponse(404, { status: 404 });
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const data = Array.from({ length: limit }, (_, i) => {
      const n = (page - 1) * limit + i + 1;
      return {
        kind: 'asset',
        id: `a${n}`,
        name: `Trashed hoodie ${n}`,
        deletedAt: '2030-01-01T00:00:00.000Z',
        deletedBy: 'u1',
        deletedByEmail: 'admin@example.com',
        purgeAt: '2030-01-31T00:00:00.000Z',
      };
    });
    return jsonResponse(200, {
      data,
      pagination: {
        page,
        limit,
        totalDocs: TOTAL,
        totalPages: TOTAL / limit,
        hasNextPage: page < TOTAL / limit,
      },
    });
  });
  return asked;
}

/** The Trash at `address`, as an admin sees it. */
function renderTrash(address: string) {
  renderScreen(() => <TrashList list={list} />, {
    address,
    validateSearch: list.validateSearch,
    toasts: true,
  });
}

/** The live stream's progress event of job1 as it now is. */
const progress = (changes: Partial<BulkJob>) => sendBulkJobProgress(job(changes));

describe('the Trash over every record a filter matches', { timeout: 30_000 }, () => {
  it('offers all the matches once the page is selected, and restores them as a job with its progress and a last word', async () => {
    setLiveStatus('connected');
    const asked = serveTrash();
    const user = userEvent.setup();
    renderTrash(TRASHED_ASSETS);
    const first = { name: 'Trashed hoodie 1' };
    expect(await screen.findByRole('rowheader', first, { timeout: 10_000 })).toBeTruthy();

    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    const bar = screen.getByRole('toolbar', { name: '10 selected' });
    await user.click(
      within(bar).getByRole('button', { name: 'Select all 2,500 records matching this filter' }),
    );
    const all = screen.getByRole('toolbar', {
      name: 'All 2,500 records matching this filter are selected',
    });
    // Deleting for ever runs on the selected records only: it is not offered for every match.
    expect(within(all).queryByRole('button', { name: 'Delete for ever' })).toBeNull();
    await user.click(within(all).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(asked).toContain('POST v1/bulk-jobs {"action":"restore","filter":{"kind":["asset"]}}'),
    );

    const progressBar = await screen.findByRole('progressbar', { name: 'Restoring' });
    expect(progressBar).toHaveAttribute('aria-valuetext', '0 of 2,500');
    progress({ state: 'running', done: 500, changed: 499, skipped: 1 });
    await waitFor(() => expect(progressBar).toHaveAttribute('aria-valuetext', '500 of 2,500'));
    progress({ state: 'done', done: 2_500, changed: 2_498, skipped: 2 });
    expect(
      await screen.findByText('2,498 records restored · 2 records could not be restored'),
    ).toBeTruthy();
    expect(screen.queryByRole('progressbar', { name: 'Restoring' })).toBeNull();
  });

  it('cancels the restore from its progress bar', async () => {
    setLiveStatus('connected');
    const asked = serveTrash();
    const user = userEvent.setup();
    renderTrash(TRASHED_ASSETS);
    expect(
      await screen.findByRole('rowheader', { name: 'Trashed hoodie 1' }, { timeout: 10_000 }),
    ).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    await user.click(
      screen.getByRole('button', { name: 'Select all 2,500 records matching this filter' }),
    );
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    await screen.findByRole('progressbar', { name: 'Restoring' });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(asked).toContain('POST v1/bulk-jobs/job1/cancel'));
  });
});
