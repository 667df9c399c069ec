import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { jsonResponse, serveRequests, testBulkJob } from '../../api/testing';
import { renderScreen, setUpScreenTests } from '../../machines/testing/render-screen.view';
import type { BulkJobOfAnyone } from '../../../contract/bulk-jobs';
import { BulkJobsScreen } from './bulk-jobs-screen';

setUpScreenTests();

/** A job of anyone as the admins' list answers it: dev@example.com's lock, running. */
const job = (changes: Partial<BulkJobOfAnyone> = {}): BulkJobOfAnyone => ({
  ...testBulkJob({ userId: 'u2', state: 'running', done: 12_500, changed: 12_500 }),
  userEmail: 'dev@example.com',
  ...changes,
});

/**
 * The admin API answering the list with each of `answers` in turn (the last one from then
 * on), and a cancel with the job cancelled by the caller `u1` (as the list then shows it too);
 * records what was asked.
 */
function serveJobs(...answers: [number, { data: BulkJobOfAnyone[] } | object][]) {
  const asked: string[] = [];
  const cancelled = new Set<string>();
  const asCancelled = (one: BulkJobOfAnyone) =>
    cancelled.has(one.id) ? { ...one, state: 'cancelled', cancelledBy: 'u1' } : one;
  let reads = 0;
  serveRequests((url, request) => {
    const call = `${request.method} ${url.pathname.slice(1)}`;
    asked.push(call);
    if (call === 'GET private/v1/bulk-jobs') {
      const [status, body] = answers[Math.min(reads++, answers.length - 1)]!;
      if (!('data' in body)) return jsonResponse(status, body);
      return jsonResponse(status, { data: body.data.map(asCancelled) });
    }
    const cancel = /^POST private\/v1\/bulk-jobs\/(\w+)\/cancel$/.exec(call);
    if (cancel) {
      cancelled.add(cancel[1]!);
      return jsonResponse(200, { data: asCancelled(job({ id: cancel[1]! })) });
    }
    if (call === 'GET v1/tags/t1') {
      return jsonResponse(200, {
        data: {
          id: 't1',
          name: 'summer',
          assetCount: 3,
          createdAt: job().createdAt,
          updatedAt: job().createdAt,
        },
      });
    }
    return jsonResponse(404, { status: 404, code: 'NOT_FOUND', message: 'No route' });
  });
  return asked;
}

const rowOf = async (name: RegExp) =>
  (await screen.findByRole('rowheader', { name }, { timeout: 10_000 })).closest('tr')!;

describe('the bulk jobs screen', { timeout: 20_000 }, () => {
  it("lists everyone's jobs: who started each, what it changes, how far it got and how it ended", async () => {
    serveJobs([
      200,
      {
        data: [
          job(),
          job({
            id: 'job2',
            userId: 'u3',
            userEmail: null,
            action: 'setTag',
            tagId: 't1',
            filter: { type: ['top'], locked: 'false' },
            state: 'queued',
            done: 0,
            total: 2_000_000,
            totalIsEstimate: true,
          }),
          job({
            id: 'job3',
            userEmail: 'old@example.com',
            action: 'delete',
            filter: {},
            state: 'failed',
            error: 'Stopped: the account was disabled',
          }),
          job({
            id: 'job4',
            userEmail: 'ann@example.com',
            state: 'cancelled',
            cancelledBy: 'u9',
          }),
          job({ id: 'job5', userEmail: 'bo@example.com', state: 'cancelled', cancelledBy: 'u2' }),
        ],
      },
    ]);
    renderScreen(() => <BulkJobsScreen />);

    const running = await rowOf(/^dev@example\.com/);
    expect(within(running).getByRole('link', { name: 'dev@example.com' })).toHaveAttribute(
      'href',
      '/users/u2',
    );
    expect(running).toHaveTextContent('Lock · search “hoodie”');
    expect(within(running).getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      '12,500 of 100,000',
    );
    expect(running).toHaveTextContent('Running');
    expect(
      within(running).getByRole('button', { name: 'Cancel the job of dev@example.com' }),
    ).toBeInTheDocument();

    // A deleted starter has no page; a tag job names its tag once read; an estimate says so.
    const queued = await rowOf(/^A deleted account/);
    expect(within(queued).queryByRole('link')).toBeNull();
    await waitFor(() =>
      expect(queued).toHaveTextContent('Add tag “summer” · type Top · unlocked only'),
    );
    expect(within(queued).getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      '0 of about 2,000,000',
    );

    const failed = await rowOf(/^old@example\.com/);
    expect(failed).toHaveTextContent('Delete · every asset');
    expect(failed).toHaveTextContent('Failed');
    expect(failed).toHaveTextContent('Stopped: the account was disabled');
    expect(within(failed).queryByRole('button')).toBeNull();

    expect(await rowOf(/^ann@example\.com/)).toHaveTextContent('Cancelled by an administrator');
    expect(await rowOf(/^bo@example\.com/)).toHaveTextContent('Cancelled by its starter');

    const results = await axe.run(document.body, {
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });

  it('asks before it cancels a job, then shows it cancelled by you', async () => {
    const asked = serveJobs([200, { data: [job()] }]);
    const user = userEvent.setup();
    renderScreen(() => <BulkJobsScreen />, { toasts: true });
    const row = await rowOf(/^dev@example\.com/);
    const cancel = { name: 'Cancel the job of dev@example.com' };

    // Kept running: nothing is sent.
    await user.click(within(row).getByRole('button', cancel));
    const question = { name: 'Cancel this bulk job?' };
    const dialog = await screen.findByRole('alertdialog', question);
    expect(dialog).toHaveTextContent('“Lock · search “hoodie””, started by dev@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it running' }));
    // By its name: toasts are alert dialogs too, and earlier files' may still be up.
    await waitFor(() => expect(screen.queryByRole('alertdialog', question)).toBeNull());
    expect(asked.filter((call) => call.startsWith('POST'))).toEqual([]);

    await user.click(within(row).getByRole('button', cancel));
    await user.click(await screen.findByRole('button', { name: 'Cancel job' }));
    await waitFor(() => expect(row).toHaveTextContent('Cancelled by you'));
    expect(asked).toContain('POST private/v1/bulk-jobs/job1/cancel');
    expect(within(row).queryByRole('button', cancel)).toBeNull();
    expect(await screen.findByText('Bulk job of dev@example.com cancelled')).toBeInTheDocument();
  });

  it('reads the jobs again every 2 s while one may still move, and stops once all have ended', async () => {
    const asked = serveJobs(
      [200, { data: [job()] }],
      [200, { data: [job({ state: 'done', done: 100_000, changed: 100_000 })] }],
    );
    renderScreen(() => <BulkJobsScreen />);
    const row = await rowOf(/^dev@example\.com/);
    await waitFor(() => expect(row).toHaveTextContent('Done'), { timeout: 4000 });
    expect(within(row).getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      '100,000 of 100,000',
    );
    const reads = asked.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(asked).toHaveLength(reads);
  });

  it('says when there are no jobs', async () => {
    serveJobs([200, { data: [] }]);
    renderScreen(() => <BulkJobsScreen />);
    expect(await screen.findByText('No bulk jobs', {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('says why the jobs could not be read, and Retry reads them again', async () => {
    serveJobs(
      [403, { status: 403, code: 'FORBIDDEN', message: 'Your role may not do this' }],
      [200, { data: [job()] }],
    );
    const user = userEvent.setup();
    renderScreen(() => <BulkJobsScreen />);
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Your role may not do this');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await rowOf(/^dev@example\.com/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is not for a role that is not an admin’s, and asks the server nothing', async () => {
    const asked = serveJobs([200, { data: [job()] }]);
    renderScreen(() => <BulkJobsScreen />, { rules: [['read', 'all']] });
    expect(
      await screen.findByRole('heading', { name: 'Not available for your role' }),
    ).toBeInTheDocument();
    expect(asked).toEqual([]);
  });
});
