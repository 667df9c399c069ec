import { useSearch } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListSearch } from '../api/list-url';
import type { Can } from '../../contract/ability';
import { ColumnsMenu, columnsMenuLabels } from '../ui/dom/list/columns-menu';
import { IgnoredFilterNotice } from '../ui/dom/list/ignored-filter-notice';
import { rememberedScroll } from '../ui/dom/list/scroll-switch';
import { useDocumentTitle } from '../ui/dom/use-document-title';
import { PHONE_QUERY, useMediaQuery } from '../ui/dom/use-media-query';
import { useIgnoredFilter } from './ignored-filter.view';
import { useListActor } from './list.actor.view';
import { useListAddress, useListViewport } from './list.address.view';
import { listKey, type ListScreenConfig, type ScrollChoice } from './list.config.view';
import { useListControls } from './list.controls.view';
import { useLiveList } from './list.live.view';
import { ListPager } from './list.pager.view';
import { ListFilters, ListHeader, ListRows, ListSortMenu } from './list.parts.view';
import { Allowed, usePermissions } from './permissions.view';
import { SavedViews } from './saved-views.view';

export type { BulkScope, ListScreenConfig } from './list.config.view';
export {
  announceFailure,
  announceOutcome,
  type ChangeOutcome,
  type ListControls,
} from './list.outcome.view';

/**
 * A list screen as the user may see it: the config factory gets the user's language and
 * permissions (toolbars and row actions offer only what the role may do).
 */
export function ListScreen<Row extends { id: string }>({
  config: configOf,
}: {
  /** The screen in the user's language; stable (module level, or memoised with its inputs). */
  config: (t: TFunction, can: Can) => ListScreenConfig<Row>;
}) {
  const { t } = useTranslation();
  const can = usePermissions();
  const config = useMemo(() => configOf(t, can), [configOf, t, can]);
  const [scrolls, setScrolls] = useState(
    () => config.canScroll === true && rememberedScroll(listKey(config)),
  );
  // Another list machine for the other mode (a key of its own): it starts from what the
  // address says, and an endless list keeps no page there.
  const shown = useMemo(
    (): ListScreenConfig<Row> =>
      scrolls ? { ...config, mode: 'infinite', urlState: false } : config,
    [config, scrolls],
  );
  const scroll = useMemo(
    () => (config.canScroll ? { scrolls, onChange: setScrolls } : undefined),
    [config.canScroll, scrolls],
  );
  return (
    <Allowed requires={config.requires}>
      <ListScreenBody key={scrolls ? 'scroll' : 'pages'} config={shown} scroll={scroll} />
    </Allowed>
  );
}

/** Binds one list machine to the address, the live stream and the screen's pieces. */
function ListScreenBody<Row extends { id: string }>({
  config,
  scroll,
}: {
  config: ListScreenConfig<Row>;
  scroll: ScrollChoice | undefined;
}) {
  const { t } = useTranslation();
  // The route validated its search with the same list definition (`defineList`).
  const search: ListSearch = useSearch({ strict: false });
  const urlState = config.urlState !== false;
  const filterIgnored = useIgnoredFilter(urlState);
  const isMobile = useMediaQuery(PHONE_QUERY);
  const key = listKey(config);
  const actor = useListActor(config, search, isMobile, scroll);
  useListAddress(actor, { search, urlState, key });
  useListViewport(actor, isMobile);
  useLiveList(actor, config.endpoint);
  const { controls, createdId } = useListControls(actor);
  useDocumentTitle(...(config.documentTitle ?? [config.title]));
  const toolbar = useMemo(() => config.toolbar?.(controls), [config, controls]);
  const toolbarMore = useMemo(() => config.toolbarMore?.(controls), [config, controls]);
  // The title and toolbar are drawn first; the filters, pagers and table (most of a list's
  // rendering) follow in a background render, so a phone paints where it is before building
  // the table. They appear below the header, so nothing drawn moves.
  const bodyShown = useDeferredValue(true, false);
  return (
    <section className="list-screen" aria-labelledby="list-title">
      <ListHeader
        actor={actor}
        title={config.title}
        breadcrumbs={config.breadcrumbs}
        scroll={scroll}
        scrollKey={key}
        more={
          <>
            {urlState && <SavedViews search={search} columnsKey={key} />}
            <ColumnsMenu listKey={key} columns={config.columns} labels={columnsMenuLabels(t)} />
            {toolbarMore}
          </>
        }
        toolbar={toolbar}
        isMobile={isMobile}
      />
      <IgnoredFilterNotice
        ignored={filterIgnored.ignored}
        message={t('list.filterIgnored')}
        dismissLabel={t('list.dismiss')}
        onDismiss={filterIgnored.dismiss}
      />
      {bodyShown && (
        <>
          <ListFilters actor={actor} filters={config.filters} />
          {isMobile && <ListSortMenu actor={actor} columns={config.columns} />}
          {config.mode === 'paged' && (
            <ListPager actor={actor} place="top" isMobile={isMobile} sizeKey={key} />
          )}
          <ListRows actor={actor} config={config} controls={controls} createdId={createdId} />
          {config.mode === 'paged' && (
            <ListPager actor={actor} place="bottom" isMobile={isMobile} sizeKey={key} />
          )}
        </>
      )}
    </section>
  );
}
