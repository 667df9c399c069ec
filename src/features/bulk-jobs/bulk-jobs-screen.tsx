/**
 * Everyone's bulk jobs (/bulk-jobs), for admins: who started each, what it changes, how far it
 * got and how it ended, and Cancel for the ones still queued or running. A job changes rows every
 * user sees, so an admin must be able to see it move and stop it.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-info';
import { tagQuery } from '../../api/tags';
import { selectUser } from '../../machines/app-session';
import { BulkJobBar } from '../../machines/bulk-jobs.view';
import { announceFailure } from '../../machines/list.view';
import { Allowed } from '../../machines/permissions.view';
import { useSessionActor } from '../../machines/session.view';
import { ActionButton } from '../../ui/dom/action-button';
import { Alert } from '../../ui/dom/alert';
import { badgeCell } from '../../ui/dom/list/cells';
import { dateColumn, type ListColumn } from '../../ui/dom/list/columns';
import { DataTable } from '../../ui/dom/list/data-table';
import { dataTableLabels } from '../../ui/dom/list/data-table-labels';
import { FormDialog } from '../../ui/dom/list/row-menu';
import { announce } from '../../ui/dom/toasts';
import { useDocumentTitle } from '../../ui/dom/use-document-title';
import { BULK_JOB_ENDED, type BulkJobOfAnyone } from '../../../contract/bulk-jobs';
import { bulkJobsOfAnyoneQuery, cancelBulkJobOfAnyone } from './api/jobs-of-anyone';
import { jobSummary, stateText } from './job-texts';
import './bulk-jobs.css';

/** The screen, or "not available" for a role that is not an admin's. */
export function BulkJobsScreen() {
  return (
    <Allowed requires={['manage', 'all']}>
      <BulkJobsList />
    </Allowed>
  );
}

/** The badge tone of each state (base.css). */
const TONES: Record<BulkJobOfAnyone['state'], string | undefined> = {
  queued: undefined,
  running: 'processing',
  done: 'completed',
  cancelled: undefined,
  failed: 'failed',
};

const starterOf = (t: TFunction, job: BulkJobOfAnyone) =>
  job.userEmail ?? t('bulkJobs.deletedAccount');

function BulkJobsList() {
  const { t } = useTranslation();
  const title = t('bulkJobs.title');
  useDocumentTitle(title);
  const jobs = useQuery(bulkJobsOfAnyoneQuery());
  const me = useSelector(useSessionActor(), (snapshot) => selectUser(snapshot)._id) ?? '';
  const columns = useMemo(() => jobColumns(t, me), [t, me]);
  const labels = useMemo(
    () => ({ ...dataTableLabels(t, title), noItems: t('bulkJobs.empty') }),
    [t, title],
  );
  const rowLabel = useMemo(
    () => (job: BulkJobOfAnyone) => `${starterOf(t, job)} · ${jobSummary(t, job)}`,
    [t],
  );
  return (
    <section className="list-screen bulk-jobs" aria-labelledby="list-title">
      <div className="list-header">
        <h1 id="list-title">{title}</h1>
      </div>
      <p className="bulk-jobs-intro">{t('bulkJobs.intro')}</p>
      {jobs.isError && (
        <Alert tone="error">
          {t('list.failed', { message: describeError(jobs.error, t) })}
          <ActionButton onPress={() => void jobs.refetch()}>{t('list.retry')}</ActionButton>
        </Alert>
      )}
      {/* A failed read again every 2 s leaves the jobs last read on screen under its alert. */}
      {!(jobs.isError && jobs.data === undefined) && (
        <DataTable
          columns={columns}
          rows={jobs.data ?? NO_JOBS}
          labels={labels}
          rowLabel={rowLabel}
          isLoading={jobs.isPending}
          skeletonRows={3}
          showProgress
        />
      )}
    </section>
  );
}

const NO_JOBS: BulkJobOfAnyone[] = [];

/** The table's columns, as the admin `me` reads them. */
const jobColumns = (t: TFunction, me: string): ListColumn<BulkJobOfAnyone>[] => [
  {
    field: 'userEmail',
    headerName: t('bulkJobs.starter'),
    // A deleted account has no page to go to.
    render: (job) =>
      job.userEmail === null ? (
        starterOf(t, job)
      ) : (
        <Link to="/users/$userId" params={{ userId: job.userId }}>
          {job.userEmail}
        </Link>
      ),
  },
  { field: 'action', headerName: t('bulkJobs.what'), render: (job) => <JobSummary job={job} /> },
  {
    field: 'done',
    headerName: t('bulkJobs.progress'),
    render: (job) => (
      <span className="bulk-jobs-progress">
        <BulkJobBar job={job} labelHidden />
      </span>
    ),
  },
  {
    field: 'state',
    headerName: t('bulkJobs.state'),
    render: (job) => (
      <span className="bulk-jobs-state">
        {badgeCell(stateText(t, job, me), TONES[job.state])}
        {job.state === 'failed' && job.error && (
          <span className="bulk-jobs-error">{job.error}</span>
        )}
        {!BULK_JOB_ENDED.includes(job.state) && <CancelJob job={job} />}
      </span>
    ),
  },
  dateColumn('createdAt', t('bulkJobs.started')),
];

/** "Add tag “summer” · search “hoodie”": a tag job names its tag once it is read. */
function JobSummary({ job }: { job: BulkJobOfAnyone }) {
  const { t } = useTranslation();
  const tag = useQuery({ ...tagQuery(job.tagId ?? ''), enabled: job.tagId !== null });
  return jobSummary(t, job, tag.data?.name);
}

/** Cancel, asked first: the job stops after its batch in hand and the row shows it cancelled. */
function CancelJob({ job }: { job: BulkJobOfAnyone }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const email = job.userEmail ?? t('bulkJobs.deletedAccount');
  const cancel = useMutation({
    mutationFn: () => cancelBulkJobOfAnyone(job.id),
    onSuccess: () => announce({ title: t('bulkJobs.cancelled', { email }), tone: 'success' }),
    onError: (error) => announceFailure(error, t),
  });
  return (
    <>
      <ActionButton
        isPending={cancel.isPending}
        pendingLabel={t('bulkJobs.cancelling')}
        onPress={() => setAsking(true)}
      >
        <span aria-hidden="true">{t('bulkJobs.cancel')}</span>
        <span className="visually-hidden">{t('bulkJobs.cancelLabel', { email })}</span>
      </ActionButton>
      {asking && (
        <FormDialog
          isOpen
          onClose={() => setAsking(false)}
          title={t('bulkJobs.cancelTitle')}
          submitLabel={t('bulkJobs.confirmCancel')}
          cancelLabel={t('bulkJobs.keepRunning')}
          tone="danger"
          onSubmit={() => cancel.mutate()}
        >
          <p>{t('bulkJobs.cancelBody', { what: jobSummary(t, job), email })}</p>
        </FormDialog>
      )}
    </>
  );
}
