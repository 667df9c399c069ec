/**
 * What the activity log's rows say (/activity): the title and detail of each kind of change.
 * Pure, so the wording is tested without rendering.
 */
import type { TFunction } from 'i18next';
import type { ActivityRow } from '../../../contract/schemas';
import { eventTitle } from '../assets';

/** The kinds of change the filter offers, grouped by kind of record (server/events.ts). */
export const CHANGES = [
  'asset.created.v1',
  'asset.updated.v1',
  'asset.locked.v1',
  'asset.deleted.v1',
  'asset.bulk-deleted.v1',
  'asset.restored.v1',
  'asset.purged.v1',
  'asset.added-to-application.v1',
  'asset.application-updated.v1',
  'asset.application-deleted.v1',
  'asset.user-assets-added.v1',
  'asset.user-assets-removed.v1',
  'asset.morph-queue-entry-created.v1',
  'asset.assets-exported.v1',
  'asset.cage-mesh-updated.v1',
  'tag.created.v1',
  'tag.renamed.v1',
  'tag.deleted.v1',
  'tag.restored.v1',
  'tag.purged.v1',
  'cage-mesh.deleted.v1',
  'cage-mesh.restored.v1',
  'cage-mesh.purged.v1',
  'application.created.v1',
  'application.updated.v1',
  'application.deleted.v1',
  'application.restored.v1',
  'application.purged.v1',
  'morphed-asset.deleted.v1',
  'morphed-asset.restored.v1',
  'morphed-asset.purged.v1',
  'user.role-changed.v1',
  'user.sessions-ended.v1',
  'user.disabled.v1',
  'user.enabled.v1',
  'user.password-reset-sent.v1',
  'user.verification-sent.v1',
  'user.second-factor-reset.v1',
  'user.invited.v1',
  'user.invitation-resent.v1',
  'user.invitation-revoked.v1',
  'user.invitation-accepted.v1',
  'user.email-changed.v1',
  'user.deleted.v1',
] as const;

/** The kind of record a routing key is about. */
export const kindOf = (routingKey: string) =>
  routingKey === 'asset.cage-mesh-updated.v1' ? 'cage-mesh' : routingKey.split('.')[0]!;

/** `tag.renamed.v1` -> `tag.renamed`: the locale key of a change that is not an asset's. */
const changeKey = (routingKey: string) => routingKey.replace(/\.v\d+$/, '');

type Change = Pick<ActivityRow, 'routingKey' | 'data'> &
  Partial<Pick<ActivityRow, 'applicationName' | 'userEmail'>>;

/** What a row's change is called: an asset event as the changelog says it, the others here. */
export function changeTitle(row: Change, t: TFunction): string {
  if (row.routingKey.startsWith('asset.')) return eventTitle(row, t);
  return t(`activity.events.${changeKey(row.routingKey)}`, { defaultValue: row.routingKey });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** What changed, when the event says: fields of an update, a name or a role from → to. */
export function changeDetail(row: Change, t: TFunction): string | null {
  const { changes, ended } = row.data;
  if (typeof ended === 'number') return t('activity.sessionsEnded', { count: ended });
  if (!isRecord(changes)) return null;
  return Object.entries(changes)
    .map(([field, change]) => {
      const label = t(`assetEditor.fields.${field}`, { defaultValue: field });
      if (field === 'tagIds' || !isRecord(change)) return label;
      const { from, to } = change;
      return typeof from === 'string' && typeof to === 'string'
        ? t('activity.fromTo', {
            field: label,
            from: from || t('activity.empty'),
            to: to || t('activity.empty'),
          })
        : label;
    })
    .join('; ');
}
