/**
 * A paged list's pagers: the compact one above the rows and the one below them with the page
 * size, showing the page, the pages and the total of the rows on screen (useShown).
 */
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LIST_PAGE_SIZES } from '../../contract/list-query';
import { PageSize as PageSizeView } from '../ui/dom/list/page-size';
import { Pager as PagerView, rememberedTotal, rememberTotal } from '../ui/dom/list/pager';
import type { ListActor } from './list.actor.view';
import {
  selectAwaitsFirstAnswer,
  selectIsFilterActive,
  selectLimit,
  selectPage,
  selectShownQuery,
  selectStatus,
  selectTotalDocs,
  selectTotalIsEstimate,
  selectTotalPages,
} from './list.machine';
import { useShown } from './list.shown.view';

function usePagerLabels() {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      nav: t('list.pages'),
      previous: t('list.previous'),
      next: t('list.next'),
      page: (n: number) => t('list.page', { page: n }),
      number: (n: number) => t('list.pageNumber', { page: n }),
      last: t('list.last'),
      lastPage: t('list.lastPage'),
      of: (n: number, total: number, estimate: boolean) =>
        t(estimate ? 'list.pageOfAbout' : 'list.pageOf', { page: n, total }),
    }),
    [t],
  );
}

// Memoised, with props kept stable: a page chosen renders the pagers' owners at once (with the
// page on screen, the new one following in the background render), and nothing below them.
const Pager = memo(PagerView);
const PageSize = memo(PageSizeView);

/**
 * A paged list's pager: above the rows (compact: where the rows are longer than the window,
 * the way to the next page is above them too) or below them with the page size.
 */
export const ListPager = memo(function ListPager({
  actor,
  place,
  isMobile,
  sizeKey,
}: {
  actor: ListActor;
  place: 'top' | 'bottom';
  isMobile: boolean;
  /** The name the page size (and the whole list's total) is remembered by. */
  sizeKey: string;
}) {
  return place === 'top' ? (
    <TopPager actor={actor} sizeKey={sizeKey} />
  ) : (
    <BottomPager actor={actor} isMobile={isMobile} sizeKey={sizeKey} />
  );
});

/** What both pagers show and do: the page, the pages, the total, and a page chosen. */
function usePagerState(actor: ListActor) {
  const page = useShown(actor, selectPage);
  const totalPages = useShown(actor, selectTotalPages);
  const estimate = useShown(actor, selectTotalIsEstimate);
  const totalDocs = useShown(actor, selectTotalDocs);
  const setPage = useCallback(
    (next: number) => actor.send({ type: 'SET_PAGE', page: next }),
    [actor],
  );
  return { labels: usePagerLabels(), page, totalPages, estimate, totalDocs, setPage };
}

function TopPager({ actor, sizeKey }: { actor: ListActor; sizeKey: string }) {
  const { t } = useTranslation();
  const { labels, page, totalPages, estimate, totalDocs, setPage } = usePagerState(actor);
  const status = useShown(actor, selectStatus);
  const filtered = useShown(actor, selectIsFilterActive);
  const awaitsFirstAnswer = useShown(actor, selectAwaitsFirstAnswer);
  // The room above the rows follows the answers that replace them (a list's first, a page, a
  // filter): others' changes merged into the rows on screen neither add it nor take it away,
  // as they move no row (the pager below offers a page they add).
  const shown = useShown(actor, selectShownQuery);
  const topLabels = useMemo(() => ({ ...labels, nav: t('list.pagesTop') }), [labels, t]);
  const [taken, setTaken] = useState({ shown, pages: totalPages });
  if (taken.shown !== shown) setTaken({ shown, pages: totalPages });
  const roomFor = taken.shown === shown ? taken.pages : totalPages;
  // Read once, with the page the list opens at and its size: a filter only narrows the list.
  const [fitsOnePage] = useState(() => {
    const total = rememberedTotal(sizeKey);
    const { page: first, limit } = actor.getSnapshot().context;
    return total !== null && first === 1 && total <= limit;
  });
  useEffect(() => {
    if (status === 'success' && !filtered) rememberTotal(sizeKey, totalDocs);
  }, [status, filtered, sizeKey, totalDocs]);
  if (totalPages > 1 && roomFor > 1) {
    return (
      <div className="list-pager-top">
        <Pager
          compact
          page={page}
          totalPages={totalPages}
          estimate={estimate}
          onPage={setPage}
          labels={topLabels}
        />
      </div>
    );
  }
  // While the first answer is awaited the pager's place is kept, so that the rows do not move
  // down when it brings a pager (Lighthouse's layout shift on a list's load); a list that
  // fitted one page when last shown keeps none. The answer that says there is one page takes
  // the place away in the render that paints its rows.
  if (roomFor <= 1 && (!awaitsFirstAnswer || fitsOnePage)) return null;
  return (
    <div className="list-pager-top">
      <div className="pager compact pager-place" aria-hidden="true">
        <span className="button">&nbsp;</span>
      </div>
    </div>
  );
}

function BottomPager({
  actor,
  isMobile,
  sizeKey,
}: {
  actor: ListActor;
  isMobile: boolean;
  sizeKey: string;
}) {
  const { t } = useTranslation();
  const { labels, page, totalPages, estimate, totalDocs, setPage } = usePagerState(actor);
  const limit = useShown(actor, selectLimit);
  const setLimit = useCallback(
    (size: number) => actor.send({ type: 'SET_LIMIT', limit: size }),
    [actor],
  );
  return (
    <div className="list-footer">
      <Pager
        page={page}
        totalPages={totalPages}
        estimate={estimate}
        onPage={setPage}
        labels={labels}
        span={isMobile ? 0 : 2}
      />
      {/* Only where there is more than the smallest page to show, or a larger one chosen. */}
      {(totalDocs > LIST_PAGE_SIZES[0] || limit !== LIST_PAGE_SIZES[0]) && (
        <PageSize list={sizeKey} value={limit} label={t('list.pageSize')} onChange={setLimit} />
      )}
    </div>
  );
}
