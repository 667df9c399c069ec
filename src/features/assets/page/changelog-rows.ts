/**
 * The changelog's rows, from the asset's events (newest first): one row per change, saying
 * what it changed. Pure, so the rules are tested without rendering.
 */
import type { TFunction } from 'i18next';
import type { AssetEvent } from '../../../../contract/schemas';

/** Events one save also publishes beside `asset.updated.v1`; the changelog shows the save once. */
const SAME_SAVE = new Set([
  'asset.updated.v2',
  'asset.model-updated.v1',
  'asset.type-or-gender-changed.v1',
]);

export interface ChangelogRow {
  event: AssetEvent;
  /** What the save changed: field names, and the tags it added or removed. */
  fields: string[];
  tags: TagChange | null;
}

/** The tags one save put on and took off (ids). */
interface TagChange {
  added: string[];
  removed: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isIdList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((id) => typeof id === 'string');

/** The tags (id and name) of the whole asset an event carries (created, updated v2, ...). */
export function tagsOf(event: AssetEvent | undefined): { id: string; name: string }[] | null {
  const asset = event?.data.asset;
  if (!isRecord(asset) || !Array.isArray(asset.tags)) return null;
  return asset.tags.flatMap((tag) =>
    isRecord(tag) && typeof tag.id === 'string' && typeof tag.name === 'string'
      ? [{ id: tag.id, name: tag.name }]
      : [],
  );
}

const difference = (a: readonly string[], b: readonly string[]) =>
  a.filter((id) => !b.includes(id));

/**
 * What a save did to the tags: from the change's own before and after when it holds them
 * (`changes.tagIds.from`/`to`), else from the asset after the save against the asset the
 * previous event of the list (an older one) carried.
 */
function tagChange(
  change: unknown,
  events: AssetEvent[],
  save: AssetEvent | undefined,
): TagChange | null {
  if (isRecord(change) && isIdList(change.from) && isIdList(change.to)) {
    return {
      added: difference(change.to, change.from),
      removed: difference(change.from, change.to),
    };
  }
  const after = tagsOf(save)?.map((tag) => tag.id);
  const index = save ? events.indexOf(save) : -1;
  const before = events
    .slice(index + 1)
    .map(tagsOf)
    .find((tags) => tags !== null)
    ?.map((tag) => tag.id);
  if (!after || !before) return null;
  return { added: difference(after, before), removed: difference(before, after) };
}

/**
 * One row per change: an update's companion events (same save: same time and author) fold into
 * it, and it names what changed, tags by what was added and removed.
 */
export function changelogRows(events: AssetEvent[]): ChangelogRow[] {
  const saveOf = (event: AssetEvent) => `${event.createdAt}|${event.actorId ?? ''}`;
  const updates = new Set(
    events.filter((e) => e.routingKey === 'asset.updated.v1').map((e) => saveOf(e)),
  );
  return events
    .filter((event) => !(SAME_SAVE.has(event.routingKey) && updates.has(saveOf(event))))
    .map((event) => {
      if (event.routingKey !== 'asset.updated.v1' || !isRecord(event.data.changes)) {
        return { event, fields: [], tags: null };
      }
      const { tagIds, ...others } = event.data.changes;
      const save = events.find(
        (e) => e.routingKey === 'asset.updated.v2' && saveOf(e) === saveOf(event),
      );
      return {
        event,
        fields: Object.keys(others),
        tags: tagIds === undefined ? null : tagChange(tagIds, events, save),
      };
    });
}

/** "Name; Tags: added Fantasy, removed Vintage". */
export function detailOf(
  { fields, tags }: ChangelogRow,
  nameOf: (id: string) => string,
  t: TFunction,
): string | null {
  const parts = fields.map((field) => t(`assetEditor.fields.${field}`, { defaultValue: field }));
  if (tags) {
    const changes = [
      ...(tags.added.length > 0
        ? [t('assetEditor.tagsAdded', { tags: tags.added.map(nameOf).join(', ') })]
        : []),
      ...(tags.removed.length > 0
        ? [t('assetEditor.tagsRemoved', { tags: tags.removed.map(nameOf).join(', ') })]
        : []),
    ];
    parts.push(t('assetEditor.changedTags', { changes: changes.join(', ') }));
  }
  return parts.length > 0 ? parts.join('; ') : null;
}

/** An event, with the names of its relation's other side when the server gave them. */
export type Relation = Pick<AssetEvent, 'routingKey' | 'data'> &
  Partial<Pick<AssetEvent, 'applicationName' | 'userEmail'>>;

const isNumber = (value: unknown): value is number => typeof value === 'number';

/**
 * The title of an event that relates the asset to an application or a user, naming the other
 * side: "Added to Avatar Hub at position 3", "Assigned to demo@avatar.studio" (null: it is gone
 * now). Null for other events, and for events without the names (the live stream's).
 */
export function relationTitle(event: Relation, t: TFunction): string | null {
  const key = event.routingKey.replace(/^asset\./, '').replace(/\.v\d+$/, '');
  if (key.includes('application') && event.applicationName === undefined) return null;
  if (key.startsWith('user-assets') && event.userEmail === undefined) return null;
  const application = event.applicationName ?? t('assetEditor.deletedApplication');
  const user = event.userEmail ?? t('assetEditor.removedUser');
  const { position, synced } = event.data;
  switch (key) {
    case 'added-to-application':
      return isNumber(position)
        ? t('assetEditor.relations.addedAt', { application, position })
        : t('assetEditor.relations.added', { application });
    case 'application-updated':
      if (isRecord(position) && isNumber(position.to)) {
        return t('assetEditor.relations.moved', { application, position: position.to });
      }
      return synced === true
        ? t('assetEditor.relations.synced', { application })
        : t('assetEditor.relations.placementChanged', { application });
    case 'application-deleted':
      return t('assetEditor.relations.removed', { application });
    case 'user-assets-added':
      return t('assetEditor.relations.assigned', { user });
    case 'user-assets-removed':
      return t('assetEditor.relations.unassigned', { user });
    default:
      return null;
  }
}
