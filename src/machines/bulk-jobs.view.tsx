/**
 * Bulk jobs on a list screen: the bulk bar's choice of every row its filter matches (as Gmail
 * offers it), the job that then runs the action on the server, and its progress above the list
 * until it ends. The assets list and the Trash share them.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { bulkJobQuery, cancelBulkJob, followBulkJob, startBulkJob } from '../api/bulk-jobs';
import { liveStatus, onLiveStatus } from '../api/live-cache';
import type { BulkScope, ListControls } from './list.view';
import { ActionButton } from '../ui/dom/action-button';
import { JobProgressBar } from '../ui/dom/list/job-progress';
import { BULK_JOB_ENDED, type BulkJob, type BulkJobCreateBody } from '../../contract/bulk-jobs';

// The jobs this tab started, shown above the list until each ends (they outlive the selection
// that started them: a delete takes its rows off the screen).
let shownJobs: readonly BulkJob[] = [];
const shownListeners = new Set<() => void>();
const setShown = (next: readonly BulkJob[]) => {
  shownJobs = next;
  for (const listener of shownListeners) listener();
};
const subscribeShown = (listener: () => void) => {
  shownListeners.add(listener);
  return () => shownListeners.delete(listener);
};

/** Shows the progress of `job` (just started) above the list until it ends. */
function showBulkJob(job: BulkJob): void {
  setShown([...shownJobs.filter((shown) => shown.id !== job.id), job]);
}

const number = (value: number) => value.toLocaleString();

/** Whether someone other than its starter cancelled `job` (an admin, from the jobs screen). */
const cancelledByOther = (job: BulkJob): boolean =>
  job.state === 'cancelled' && job.cancelledBy !== null && job.cancelledBy !== job.userId;

/** What a job did, for the toast at its end. */
function bulkJobOutcome(t: TFunction, job: BulkJob): string {
  if (job.state === 'failed') return t('bulk.job.failed', { error: job.error ?? '' });
  const stopped = cancelledByOther(job) ? 'bulk.job.cancelledByAdmin' : 'bulk.job.cancelled';
  const said = [
    ...(job.state === 'cancelled' ? [t(stopped)] : []),
    t(`bulk.job.done.${job.action}`, { count: job.changed, n: number(job.changed) }),
    ...(job.skipped > 0
      ? [
          t(job.action === 'restore' ? 'bulk.job.notRestored' : 'bulk.job.skipped', {
            count: job.skipped,
            n: number(job.skipped),
          }),
        ]
      : []),
  ];
  return said.join(' · ');
}

/** A running job: its bar, "12,500 of 100,000", and Cancel; at its end, a toast says what it did. */
function BulkJobProgress({ job, list }: { job: BulkJob; list: ListControls }) {
  const { t } = useTranslation();
  const live = useSyncExternalStore(onLiveStatus, liveStatus) === 'connected';
  // Progress comes with the live stream's events; without the stream the job is read again.
  const { data = job } = useQuery({
    ...bulkJobQuery(job.id),
    refetchInterval: live ? false : 2000,
  });
  useEffect(() => followBulkJob(job.id), [job.id]);
  const ended = BULK_JOB_ENDED.includes(data.state);
  const told = useRef(false);
  useEffect(() => {
    if (!ended || told.current) return;
    told.current = true;
    list.announce({ done: bulkJobOutcome(t, data) });
    list.refresh();
    setShown(shownJobs.filter((shown) => shown.id !== job.id));
  }, [ended, data, job.id, list, t]);
  return (
    <div className="bulk-job">
      <BulkJobBar job={data} />
      <ActionButton isDisabled={ended} onPress={() => void list.run(() => cancelBulkJob(job.id))}>
        {t('list.cancel')}
      </ActionButton>
    </div>
  );
}

/**
 * A job's bar, named by what it does ("Locking"), with "12,500 of 100,000" ("of about" when the
 * total is the planner's estimate). `labelHidden` where a column header names it already.
 */
export function BulkJobBar({ job, labelHidden }: { job: BulkJob; labelHidden?: boolean }) {
  const { t } = useTranslation();
  const total = Math.max(job.total, job.done);
  return (
    <JobProgressBar
      label={t(`bulk.job.progressLabel.${job.action}`)}
      labelHidden={labelHidden}
      done={job.done}
      total={total}
      valueLabel={t(job.totalIsEstimate ? 'bulk.job.progressAbout' : 'bulk.job.progress', {
        done: number(job.done),
        total: number(total),
      })}
    />
  );
}

/** The bulk jobs this tab started that have not ended yet, each with its progress. */
export function BulkJobsInProgress({ list }: { list: ListControls }) {
  const jobs = useSyncExternalStore(subscribeShown, () => shownJobs);
  return jobs.map((job) => <BulkJobProgress key={job.id} job={job} list={list} />);
}

/**
 * The bulk bar's "every match": with every row on screen selected and more matching, `offer`
 * is the button that selects them all; `label` names the selection (the bar's name). `texts` is
 * the list's key prefix of `selectAllMatching`, `allMatching` and their `About` forms.
 */
export function useAllMatching(
  ids: readonly string[],
  scope: BulkScope,
  texts: 'bulk' | 'trash',
): { allMatching: boolean; label: string; offer: ReactNode; reset: () => void } {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState(false);
  const count = ids.length;
  const everyRowShown = count === scope.shown;
  // Unselecting a row on screen leaves "every match" too.
  const allMatching = chosen && everyRowShown;
  const total = scope.totalDocs.toLocaleString();
  const label = allMatching
    ? scope.totalIsEstimate
      ? t(`${texts}.allMatchingAbout`, { total })
      : t(`${texts}.allMatching`, { count: scope.totalDocs, total })
    : t('bulk.selected', { count });
  const offer = everyRowShown && !allMatching && scope.totalDocs > count && (
    <ActionButton variant="link" onPress={() => setChosen(true)}>
      {scope.totalIsEstimate
        ? t(`${texts}.selectAllMatchingAbout`, { total })
        : t(`${texts}.selectAllMatching`, { count: scope.totalDocs, total })}
    </ActionButton>
  );
  return { allMatching, label, offer, reset: () => setChosen(false) };
}

/**
 * Starts a job over every row of `scope` and shows its progress (BulkJobsInProgress); resolves
 * true once it started, as ListControls.run does.
 */
export function runBulkJob(
  list: ListControls,
  scope: BulkScope,
  body: Omit<BulkJobCreateBody, 'filter'>,
): Promise<boolean> {
  return list.run(async () => showBulkJob(await startBulkJob({ ...body, filter: scope.filter })));
}
