import { useInfiniteQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { assetChangelogQuery } from '../../../api/assets';
import type { Asset, AssetEvent } from '../../../api/schemas';
import { ActionButton } from '../../../ui/dom/action-button';
import { dateCell } from '../../../ui/dom/list/cells';
import { Failure, Panel } from './panel';

/** The translated name of a routing key (`asset.created.v1` -> "Created"), or the key itself. */
export function eventTitle(event: Pick<AssetEvent, 'routingKey' | 'data'>, t: TFunction): string {
  if (event.routingKey === 'asset.locked.v1' && typeof event.data.locked === 'boolean') {
    return event.data.locked ? t('assetEditor.lockedEvent') : t('assetEditor.unlockedEvent');
  }
  const key = event.routingKey.replace(/^asset\./, '').replace(/\.(v\d+)$/, '-$1');
  return t(`assetEditor.events.${key}`, { defaultValue: event.routingKey });
}

/** Events one save also publishes beside `asset.updated.v1`; the changelog shows the save once. */
const SAME_SAVE = new Set([
  'asset.updated.v2',
  'asset.model-updated.v1',
  'asset.type-or-gender-changed.v1',
]);

interface ChangelogRow {
  event: AssetEvent;
  /** What the save changed, readable: "Name, Description" or "Tags: Fantasy, Sport". */
  detail: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * One row per change: an update's companion events (same save: same time and author) fold into
 * it, and it names what changed; the tags are named from the full asset the save published.
 */
function changelogRows(events: AssetEvent[], t: TFunction): ChangelogRow[] {
  const saveOf = (event: AssetEvent) => `${event.createdAt}|${event.actorId ?? ''}`;
  const updates = new Set(
    events.filter((e) => e.routingKey === 'asset.updated.v1').map((e) => saveOf(e)),
  );
  return events
    .filter((event) => !(SAME_SAVE.has(event.routingKey) && updates.has(saveOf(event))))
    .map((event) => {
      if (event.routingKey !== 'asset.updated.v1' || !isRecord(event.data.changes)) {
        return { event, detail: null };
      }
      const fields = Object.keys(event.data.changes);
      const full = events.find(
        (e) => e.routingKey === 'asset.updated.v2' && saveOf(e) === saveOf(event),
      )?.data.asset;
      const tags =
        isRecord(full) && Array.isArray(full.tags)
          ? full.tags.flatMap((tag) =>
              isRecord(tag) && typeof tag.name === 'string' ? [tag.name] : [],
            )
          : null;
      const parts = fields.map((field) =>
        field === 'tagIds'
          ? t('assetEditor.changedTags', {
              tags: tags && tags.length > 0 ? tags.join(', ') : t('assetEditor.noTagsLeft'),
            })
          : t(`assetEditor.fields.${field}`, { defaultValue: field }),
      );
      return { event, detail: parts.join('; ') };
    });
}

/**
 * The back-office changelog, newest first, "Load more" for older pages. Every change made here
 * marks it stale through the query cache, so it is read again at once.
 */
export function AssetChangelog({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const changelog = useInfiniteQuery(assetChangelogQuery(asset.id));
  const events = changelog.data?.pages.flatMap((page) => page.data) ?? [];
  const rows = changelogRows(events, t);
  return (
    <Panel title={t('assetEditor.changelog')}>
      {changelog.isSuccess && events.length === 0 && (
        <p className="field-description">{t('assetEditor.noEvents')}</p>
      )}
      <ol className="changelog">
        {rows.map(({ event, detail }) => (
          <li key={event.id}>
            <span className="changelog-title">{eventTitle(event, t)}</span>{' '}
            {detail && <span className="changelog-detail">{detail}</span>}{' '}
            <code>{event.routingKey}</code>
            <span className="field-description">
              {t('assetEditor.by', { actor: event.actorEmail ?? t('assetEditor.system') })} ·{' '}
              {dateCell(event.createdAt)}
            </span>
          </li>
        ))}
      </ol>
      {changelog.hasNextPage && (
        <ActionButton
          isPending={changelog.isFetchingNextPage}
          pendingLabel={t('assetEditor.loadingMore')}
          onPress={() => void changelog.fetchNextPage()}
        >
          {t('assetEditor.loadMore')}
        </ActionButton>
      )}
      <Failure error={changelog.error} />
    </Panel>
  );
}
