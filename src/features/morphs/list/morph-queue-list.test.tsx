import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { defineList } from '../../../api/list-url';
import { jsonResponse, serveRequests } from '../../../api/testing';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';
import { morphStatusSchema } from '../../../../contract/schemas';
import { MorphQueueList } from './morph-queue-list';

setUpScreenTests();

// As the morph queue route declares it.
const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    status: z.optional(z.array(morphStatusSchema)),
  }),
  sortFields: ['createdAt', 'updatedAt', 'status'],
  defaultOrder: { createdAt: 'desc' },
  mode: 'infinite',
});

const job = (id: string, source: string, status: string, error: string | null = null) => ({
  id,
  sourceAssetId: `a-${source}`,
  sourceAssetName: source,
  bodyAssetId: 'b1',
  bodyAssetName: 'Body',
  status,
  progress: status === 'completed' ? 100 : 0,
  error,
  morphedAssetId: null,
  createdAt: `2030-01-0${id.slice(1)}T00:00:00.000Z`,
  updatedAt: `2030-01-0${id.slice(1)}T00:00:00.000Z`,
});

/** A failed and a completed job; Generate queues new ones on top (its calls recorded). */
function serveQueue() {
  const generated: unknown[] = [];
  let rows = [
    job('q2', 'Jacket', 'failed', 'The body model has no meshes'),
    job('q1', 'Coat', 'completed'),
  ];
  serveRequests(async (url, request) => {
    await Promise.resolve();
    if (url.pathname.endsWith('/generate')) {
      const body = (await request.json()) as { sourceAssetId: string };
      generated.push(body);
      const again = { ...job('q3', 'Jacket', 'queued'), sourceAssetId: body.sourceAssetId };
      rows = [again, ...rows];
      return jsonResponse(200, { data: [again] });
    }
    return jsonResponse(200, {
      data: rows,
      pagination: {
        page: 1,
        limit: 20,
        totalDocs: rows.length,
        totalPages: 1,
        hasNextPage: false,
      },
    });
  });
  return generated;
}

const rowOf = (name: string) =>
  screen.getAllByRole('row').filter((row) => within(row).queryByRole('rowheader', { name }))[0]!;

describe('the morph queue', { timeout: 20_000 }, () => {
  it('offers Retry and a row menu on a failed job, which queues the same morph again', async () => {
    const generated = serveQueue();
    const actor = userEvent.setup();
    renderScreen(() => <MorphQueueList list={list} />, {
      address: '/morph-queue',
      validateSearch: list.validateSearch,
      toasts: true,
    });
    await screen.findByRole('rowheader', { name: 'Jacket' }, { timeout: 10_000 });
    const failed = rowOf('Jacket');
    expect(within(failed).getByText(/The body model has no meshes/)).toBeTruthy();
    expect(within(rowOf('Coat')).queryByRole('button', { name: 'Retry' })).toBeNull();

    await actor.click(within(failed).getByRole('button', { name: 'Actions: Jacket' }));
    expect(await screen.findByRole('menuitem', { name: 'Retry' })).toBeTruthy();
    await actor.keyboard('{Escape}');

    await actor.click(within(failed).getByRole('button', { name: 'Retry' }));
    await screen.findByText('Morph of Jacket on Body queued again');
    expect(generated).toEqual([{ sourceAssetId: 'a-Jacket', bodyAssetIds: ['b1'] }]);
    await waitFor(() =>
      expect(screen.getAllByRole('rowheader', { name: 'Jacket' })).toHaveLength(2),
    );
  });
});
