import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Label, ProgressBar } from 'react-aria-components';
import type { TFunction } from 'i18next';
import { bulkJobQuery, cancelBulkJob, followBulkJob } from '../../../api/bulk-jobs';
import { liveStatus, onLiveStatus } from '../../../api/live-cache';
import type { ListControls } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { BULK_JOB_ENDED, type BulkJob } from '../../../../contract/bulk-jobs';
import './bulk-job.css';

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
export function showBulkJob(job: BulkJob): void {
  setShown([...shownJobs.filter((shown) => shown.id !== job.id), job]);
}

const number = (value: number) => value.toLocaleString();

/** What a job did, for the toast at its end. */
function bulkJobOutcome(t: TFunction, job: BulkJob): string {
  if (job.state === 'failed') return t('bulk.job.failed', { error: job.error ?? '' });
  const said = [
    ...(job.state === 'cancelled' ? [t('bulk.job.cancelled')] : []),
    t(`bulk.job.done.${job.action}`, { count: job.changed, n: number(job.changed) }),
    ...(job.skipped > 0
      ? [t('bulk.job.skipped', { count: job.skipped, n: number(job.skipped) })]
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
  const total = Math.max(data.total, data.done);
  const valueLabel = t(data.totalIsEstimate ? 'bulk.job.progressAbout' : 'bulk.job.progress', {
    done: number(data.done),
    total: number(total),
  });
  return (
    <div className="bulk-job">
      <ProgressBar
        className="bulk-job-bar"
        value={data.done}
        maxValue={Math.max(total, 1)}
        valueLabel={valueLabel}
      >
        {({ percentage }) => (
          <>
            <span className="bulk-job-text">
              <Label>{t(`bulk.job.progressLabel.${data.action}`)}</Label>
              <span className="bulk-job-value">{valueLabel}</span>
            </span>
            <span className="bulk-job-track">
              <span className="bulk-job-fill" style={{ width: `${percentage ?? 0}%` }} />
            </span>
          </>
        )}
      </ProgressBar>
      <ActionButton isDisabled={ended} onPress={() => void list.run(() => cancelBulkJob(job.id))}>
        {t('list.cancel')}
      </ActionButton>
    </div>
  );
}

/** The bulk jobs this tab started that have not ended yet, each with its progress. */
export function BulkJobsInProgress({ list }: { list: ListControls }) {
  const jobs = useSyncExternalStore(subscribeShown, () => shownJobs);
  return jobs.map((job) => <BulkJobProgress key={job.id} job={job} list={list} />);
}
