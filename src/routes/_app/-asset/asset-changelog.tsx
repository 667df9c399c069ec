import { useInfiniteQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { assetChangelogQuery } from '../../../api/assets';
import type { Asset, AssetEvent } from '../../../api/schemas';
import { ActionButton } from '../../../ui/dom/action-button';
import { dateCell } from '../../../ui/dom/list/cells';
import { Failure, Panel } from './panel';

/** The translated name of a routing key (`asset.created.v1` -> "Created"), or the key itself. */
function eventTitle(event: AssetEvent, t: TFunction): string {
  if (event.routingKey === 'asset.locked.v1' && typeof event.data.locked === 'boolean') {
    return event.data.locked ? t('assetEditor.lockedEvent') : t('assetEditor.unlockedEvent');
  }
  const key = event.routingKey.replace(/^asset\./, '').replace(/\.(v\d+)$/, '-$1');
  return t(`assetEditor.events.${key}`, { defaultValue: event.routingKey });
}

/**
 * The back-office changelog, newest first, "Load more" for older pages. Every change made here
 * marks it stale through the query cache, so it is read again at once.
 */
export function AssetChangelog({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const changelog = useInfiniteQuery(assetChangelogQuery(asset.id));
  const events = changelog.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Panel title={t('assetEditor.changelog')}>
      {changelog.isSuccess && events.length === 0 && (
        <p className="field-description">{t('assetEditor.noEvents')}</p>
      )}
      <ol className="changelog">
        {events.map((event) => (
          <li key={event.id}>
            <span className="changelog-title">{eventTitle(event, t)}</span>{' '}
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
