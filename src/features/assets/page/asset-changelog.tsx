import { useInfiniteQuery, useQueries } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { assetChangelogQuery } from '../api/cache';
import type { Asset, AssetEvent } from '../../../../contract/schemas';
import { tagQuery } from '../../../api/tags';
import { ActionButton } from '../../../ui/dom/action-button';
import { dateCell } from '../../../ui/dom/list/cells';
import {
  changelogRows,
  detailOf,
  relationTitle,
  tagsOf,
  type ChangelogRow,
  type Relation,
} from './changelog-rows';
import { Failure, Panel } from './panel';

/**
 * The translated name of an asset event (`asset.created.v1` -> "Created"; a relation names its
 * other side: "Added to Avatar Hub at position 3"), or the routing key itself.
 */
export function eventTitle(event: Relation, t: TFunction): string {
  const relation = relationTitle(event, t);
  if (relation !== null) return relation;
  if (event.routingKey === 'asset.locked.v1' && typeof event.data.locked === 'boolean') {
    return event.data.locked ? t('assetEditor.lockedEvent') : t('assetEditor.unlockedEvent');
  }
  const key = event.routingKey.replace(/^asset\./, '').replace(/\.(v\d+)$/, '-$1');
  return t(`assetEditor.events.${key}`, { defaultValue: event.routingKey });
}

/**
 * Tag names by id: from the asset now and every asset snapshot in the events (names as they
 * were then), and for the rest (a tag taken off before the events on screen) read by id; a
 * tag deleted since has no name left.
 */
function useTagNames(asset: Asset, events: AssetEvent[], rows: ChangelogRow[], t: TFunction) {
  const known = new Map<string, string>();
  // Oldest first, so the newest name of a renamed tag wins.
  const snapshots = events.toReversed().flatMap((event) => tagsOf(event) ?? []);
  for (const tag of [...snapshots, ...asset.tags]) {
    known.set(tag.id, tag.name);
  }
  const unknown = [
    ...new Set(rows.flatMap(({ tags }) => (tags ? [...tags.added, ...tags.removed] : []))),
  ].filter((id) => !known.has(id));
  const read = useQueries({ queries: unknown.map((id) => tagQuery(id)) });
  return (id: string) => {
    const name = known.get(id) ?? read[unknown.indexOf(id)]?.data?.name;
    if (name !== undefined) return name;
    return read[unknown.indexOf(id)]?.isError ? t('assetEditor.deletedTag') : '…';
  };
}

/**
 * The back-office changelog, newest first, "Load more" for older pages. Every change made here
 * marks it stale through the query cache, so it is read again at once.
 */
export function AssetChangelog({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const changelog = useInfiniteQuery(assetChangelogQuery(asset.id));
  const events = changelog.data?.pages.flatMap((page) => page.data) ?? [];
  const rows = changelogRows(events);
  const nameOf = useTagNames(asset, events, rows, t);
  return (
    <Panel title={t('assetEditor.changelog')} busy={changelog.isPending}>
      {changelog.isSuccess && events.length === 0 && (
        <p className="field-description">{t('assetEditor.noEvents')}</p>
      )}
      <ol className="changelog">
        {rows.map((row) => {
          const { event } = row;
          const detail = detailOf(row, nameOf, t);
          return (
            <li key={event.id}>
              {/* The routing key is for developers: a tooltip, not the text. */}
              <span className="changelog-title" title={event.routingKey}>
                {eventTitle(event, t)}
              </span>{' '}
              {detail && <span className="changelog-detail">{detail}</span>}
              <span className="field-description">
                {t('assetEditor.by', { actor: event.actorEmail ?? t('assetEditor.system') })} ·{' '}
                {dateCell(event.createdAt)}
              </span>
            </li>
          );
        })}
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
