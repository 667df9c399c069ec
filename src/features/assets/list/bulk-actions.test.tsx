import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureSession } from '../../../api/session-bridge';
import {
  jsonResponse,
  sendBulkJobProgress,
  serveApi,
  signedInSession,
  testBulkJob,
} from '../../../api/testing';
import { setLiveStatus } from '../../../api/live-cache';
import { queryClient } from '../../../api/query';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import type { BulkScope, ListControls } from '../../../machines/list.view';
import type { BulkJob } from '../../../../contract/bulk-jobs';
import { AssetBulkActions } from './bulk-actions';
import { BulkJobsInProgress } from '../../../machines/bulk-jobs.view';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});
afterEach(() => setLiveStatus(null));

const job = testBulkJob;

/** The live stream's progress event of job1 as it now is. */
const progress = (changes: Partial<BulkJob>) => sendBulkJobProgress(job(changes));

function listControls() {
  const said: string[] = [];
  const list: ListControls = {
    refresh: () => undefined,
    announce: (outcome) => void said.push(outcome.done),
    run: async (work) => {
      await work();
      return true;
    },
  };
  return { list, said };
}

/** The API for job1; `reads` sets the job GET answers from then on (queued until then). */
function serve() {
  let read = job();
  const server = serveApi({
    'GET v1/bulk-jobs/job1': () => jsonResponse(200, { data: read }),
    'POST v1/bulk-jobs': () => jsonResponse(200, { data: job() }),
    'POST v1/bulk-jobs/job1/cancel': () =>
      jsonResponse(200, { data: job({ state: 'cancelled', done: 12_500, changed: 12_500 }) }),
  });
  configureSession(signedInSession());
  return { ...server, reads: (now: BulkJob) => void (read = now) };
}

const scope: BulkScope = {
  filter: { search: 'hoodie', type: [] },
  totalDocs: 100_000,
  totalIsEstimate: false,
  shown: 2,
};

function renderBar(list: ListControls, ids = ['a1', 'a2']) {
  return render(
    <QueryClientProvider client={queryClient}>
      <BulkJobsInProgress list={list} />
      <AssetBulkActions ids={ids} list={list} scope={scope} can={() => true} />
    </QueryClientProvider>,
  );
}

describe('the bulk bar over every asset a filter matches', { timeout: 20_000 }, () => {
  it('offers all the matches once the page is selected, then runs the action as a job with its progress, Cancel and a last word', async () => {
    setLiveStatus('connected');
    const server = serve();
    const { list, said } = listControls();
    const view = renderBar(list);
    await userEvent.click(
      screen.getByRole('button', { name: 'Select all 100,000 assets matching this filter' }),
    );
    expect(
      screen.getByRole('toolbar', {
        name: 'All 100,000 assets matching this filter are selected',
      }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Lock' }));
    await waitFor(() =>
      expect(server.sent()).toContain(
        'POST v1/bulk-jobs {"action":"lock","filter":{"search":"hoodie"}}',
      ),
    );
    const bar = await screen.findByRole('progressbar', { name: 'Locking' });
    expect(bar).toHaveAttribute('aria-valuetext', '0 of 100,000');
    progress({ state: 'running', done: 12_500, changed: 12_400, skipped: 100 });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuetext', '12,500 of 100,000'));
    expect(bar).toHaveAttribute('aria-valuenow', '12500');

    const results = await axe.run(view.container, {
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);

    const end: Partial<BulkJob> = { state: 'done', done: 100_000, changed: 99_000, skipped: 1_000 };
    server.reads(job(end));
    progress(end);
    await waitFor(() =>
      expect(said).toEqual(['99,000 assets locked · 1,000 locked assets skipped']),
    );
    expect(screen.queryByRole('progressbar', { name: 'Locking' })).not.toBeInTheDocument();
  });

  it('cancels a job from its progress bar', async () => {
    setLiveStatus('connected');
    const server = serve();
    const { list, said } = listControls();
    renderBar(list);
    await userEvent.click(screen.getByRole('button', { name: /^Select all/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Lock' }));
    await screen.findByRole('progressbar', { name: 'Locking' });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(said).toEqual(['Stopped part way · 12,500 assets locked']));
    expect(server.sent()).toContain('POST v1/bulk-jobs/job1/cancel ');
  });

  it.each([
    {
      ended: 'cancelled by an administrator',
      read: { state: 'cancelled', cancelledBy: 'admin1', done: 12_500, changed: 12_500 },
      said: 'Cancelled by an administrator · 12,500 assets locked',
    },
    {
      ended: 'failed',
      read: { state: 'failed', error: 'Stopped: the account was disabled' },
      said: 'The change stopped: Stopped: the account was disabled',
    },
  ] as const)(
    'says at its end how a job $ended ended, from the job as read then (its event has only counts)',
    async ({ read, said: expected }) => {
      setLiveStatus('connected');
      const server = serve();
      const { list, said } = listControls();
      renderBar(list);
      await userEvent.click(screen.getByRole('button', { name: /^Select all/ }));
      await userEvent.click(screen.getByRole('button', { name: 'Lock' }));
      await screen.findByRole('progressbar', { name: 'Locking' });
      server.reads(job(read));
      progress({ state: read.state, done: 12_500, changed: 12_500 });
      await waitFor(() => expect(said).toEqual([expected]));
    },
  );

  it('offers no more than the selection while part of the page is selected', () => {
    serve();
    const { list } = listControls();
    renderBar(list, ['a1']);
    expect(screen.queryByRole('button', { name: /matching this filter/ })).not.toBeInTheDocument();
    expect(screen.getByRole('toolbar', { name: '1 selected' })).toBeInTheDocument();
  });
});
