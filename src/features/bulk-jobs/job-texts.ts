/** A bulk job in words, for the admins' list of everyone's jobs. */
import type { TFunction } from 'i18next';
import type { BulkJob } from '../../../contract/bulk-jobs';
import { displayLabel } from '../../ui/dom/list/asset-filters';

/** A filter value as the words it holds: a list's chips are strings, `locked` may be a flag. */
const valuesOf = (value: unknown): string[] =>
  (Array.isArray(value) ? (value as unknown[]) : [value]).flatMap((one) =>
    typeof one === 'string' || typeof one === 'number' || typeof one === 'boolean'
      ? [String(one)]
      : [],
  );

/** One filter field in words ("search “hoodie”", "type Top, Shoes"); ids are counted. */
function filterPart(t: TFunction, field: string, values: string[]): string {
  const named = (name: string, shown: string[]) =>
    t('bulkJobs.filter.field', { field: name, values: shown.join(', ') });
  switch (field) {
    case 'search':
      return t('bulkJobs.filter.search', { text: values.join(' ') });
    case 'locked':
      return t(values[0] === 'true' ? 'bulkJobs.filter.locked' : 'bulkJobs.filter.unlocked');
    case 'tagId':
      return t('bulkJobs.filter.tags', { count: values.length });
    case 'applicationId':
      return t('bulkJobs.filter.applications', { count: values.length });
    case 'deletedBy':
      return t('bulkJobs.filter.deletedBy', { count: values.length });
    case 'kind':
      return named(
        t('bulkJobs.fields.kind'),
        values.map((kind) => t(`trash.kinds.${kind}`, { defaultValue: kind })),
      );
    case 'type':
    case 'gender':
      return named(t(`bulkJobs.fields.${field}`), values.map(displayLabel));
    default:
      return named(field, values);
  }
}

/** The rows a job walks, in words: its list's filter, or every row of that list. */
function filterSummary(t: TFunction, job: Pick<BulkJob, 'filter' | 'list'>): string {
  const parts = Object.entries(job.filter).flatMap(([field, value]) => {
    const values = valuesOf(value);
    return values.length > 0 ? [filterPart(t, field, values)] : [];
  });
  if (parts.length > 0) return parts.join(' · ');
  return t(job.list === 'trash' ? 'bulkJobs.filter.allTrash' : 'bulkJobs.filter.all');
}

/**
 * What a job does, in words: "Lock · search “hoodie”". `tag` is the name of a tag job's tag
 * (undefined while unknown).
 */
export function jobSummary(
  t: TFunction,
  job: Pick<BulkJob, 'action' | 'filter' | 'list'>,
  tag?: string,
): string {
  const action = t(`bulkJobs.actions.${job.action}`);
  const named = tag === undefined ? action : t('bulkJobs.withTag', { action, tag });
  return `${named} · ${filterSummary(t, job)}`;
}

/** A job's state in words: who cancelled it, seen by the admin `me`. */
export function stateText(
  t: TFunction,
  job: Pick<BulkJob, 'state' | 'cancelledBy' | 'userId'>,
  me: string,
): string {
  if (job.state !== 'cancelled' || job.cancelledBy === null)
    return t(`bulkJobs.states.${job.state}`);
  if (job.cancelledBy === me) return t('bulkJobs.cancelledByYou');
  if (job.cancelledBy === job.userId) return t('bulkJobs.cancelledByStarter');
  return t('bulk.job.cancelledByAdmin');
}
