/**
 * Binds the "Views" menu (src/ui/dom/list/saved-views-menu.tsx) to a list screen: the user's
 * views of the list come from the query cache, a view applies by writing its search to the
 * address (the list follows the address) and its columns to the list's column layout, and a
 * link with `?view=<id>` opens that view, saying whose it is when it is someone else's.
 */
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { canonical } from '../../contract/list-query';
import {
  SAVED_VIEW_LISTS,
  type SavedView,
  type SavedViewList,
  type SavedViewSearch,
} from '../../contract/saved-views';
import { describeError } from '../api/error-info';
import { firstAnswerSettled, onFirstAnswerSettled } from '../api/first-answer';
import type { ListSearch } from '../api/list-url';
import {
  changeView,
  deleteView,
  saveView,
  savedViewQuery,
  savedViewsQuery,
} from '../api/saved-views';
import { useColumnLayout } from '../ui/dom/list/column-layout';
import { SavedViewsMenu, type SavedViewsMenuLabels } from '../ui/dom/list/saved-views-menu';
import { announce } from '../ui/dom/toasts';
import { usePermissions } from './permissions.view';

/** The list a screen path saves views of, if it is one that does. */
function listAt(pathname: string): SavedViewList | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return (Object.keys(SAVED_VIEW_LISTS) as SavedViewList[]).find(
    (list) => SAVED_VIEW_LISTS[list].path === path,
  );
}

/** What a view keeps of the list's address: its filter, sort and page size (never a page). */
function searchOf(search: ListSearch): SavedViewSearch {
  const kept: SavedViewSearch = {};
  if (search.filter && Object.keys(search.filter).length > 0) {
    kept.filter = search.filter as SavedViewSearch['filter'];
  }
  if (search.order) kept.order = search.order;
  if (search.limit !== undefined) kept.limit = search.limit as SavedViewSearch['limit'];
  return kept;
}

/** Whether the list still shows a view's rows (its filter and sort; the page size aside). */
const shows = (search: ListSearch, view: SavedView) =>
  canonical(search.filter ?? {}) === canonical(view.search.filter ?? {}) &&
  (view.search.order === undefined || view.search.order === search.order);

/** The Views menu of the list screen at the current path (none where views are not kept). */
export function SavedViews({
  search,
  columnsKey,
}: {
  search: ListSearch;
  /** The key the list's column layout is kept under (useColumnLayout). */
  columnsKey: string;
}) {
  // The screen's path as it opened: a list screen stays at its path while it is shown.
  const router = useRouter();
  const [list] = useState(() => listAt(router.state.location.pathname));
  const can = usePermissions();
  if (!list) return null;
  const [action, subject] = SAVED_VIEW_LISTS[list].need;
  if (!can(action, subject)) return null;
  return <SavedViewsOfList key={list} list={list} search={search} columnsKey={columnsKey} />;
}

function SavedViewsOfList({
  list,
  search,
  columnsKey,
}: {
  list: SavedViewList;
  search: ListSearch;
  columnsKey: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const router = useRouter();
  const path = SAVED_VIEW_LISTS[list].path;
  const [layout, setLayout] = useColumnLayout(columnsKey);
  // The address's `view` as the screen opened: the list's own address writes drop it.
  const [linkedId] = useState(() => {
    const raw: unknown = (router.state.location.search as Record<string, unknown>).view;
    return typeof raw === 'string' && raw !== '' ? raw : undefined;
  });
  // The view the user chose here (null: the one on screen was deleted); until then, the linked one.
  const [chosen, setCurrent] = useState<SavedView | null>();
  // The user's views are read once the page's first answer is drawn: the rows come first.
  const settled = useSyncExternalStore(onFirstAnswerSettled, firstAnswerSettled);
  const mine = useQuery({ ...savedViewsQuery(list), enabled: settled });
  const linked = useQuery({ ...savedViewQuery(linkedId ?? ''), enabled: linkedId !== undefined });
  const linkedView = linked.data?.list === list ? linked.data : undefined;
  const current = chosen === undefined ? linkedView : (chosen ?? undefined);
  // A linked view that cannot be read leaves the list as the link opened it, with no filter.
  const linkFailed =
    chosen === undefined &&
    linkedId !== undefined &&
    (linked.isError || (linked.data !== undefined && linkedView === undefined));

  const show = (view: SavedView, replace = false) => {
    setLayout(view.columns ?? undefined);
    void navigate({ to: path, search: view.search, replace });
  };
  const apply = (view: SavedView) => {
    setCurrent(view);
    show(view);
  };

  // A linked view applies once, when it arrives (the address and the columns follow it).
  const applied = useRef(false);
  useEffect(() => {
    if (applied.current || !linkedView) return;
    applied.current = true;
    show(linkedView, true);
    // `show` is made anew each render; the view is what this waits for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linkedView]);

  // A view the user has since filtered or sorted otherwise is no longer on screen.
  const onScreen = current && shows(search, current) ? current : undefined;

  const labels = useMemo(
    (): SavedViewsMenuLabels => ({
      menu: t('savedViews.menu'),
      save: t('savedViews.save'),
      saveTitle: t('savedViews.saveTitle'),
      saveButton: t('savedViews.saveButton'),
      name: t('savedViews.name'),
      mine: t('savedViews.mine'),
      none: t('savedViews.none'),
      copyLink: t('savedViews.copyLink'),
      rename: t('savedViews.rename'),
      renameTitle: t('savedViews.renameTitle'),
      renameButton: t('savedViews.renameButton'),
      delete: t('savedViews.delete'),
      cancel: t('list.cancel'),
      current: (name) => t('savedViews.current', { name }),
    }),
    [t],
  );
  const failure = (error: unknown) => describeError(error, t) ?? String(error);
  const body = () => ({ search: searchOf(search), columns: layout ?? null });

  return (
    <>
      {onScreen && !onScreen.mine && (
        <p className="saved-view-note" role="status">
          {onScreen.owner.email
            ? t('savedViews.theirs', { owner: onScreen.owner.email, name: onScreen.name })
            : t('savedViews.shared', { name: onScreen.name })}
        </p>
      )}
      {linkFailed && (
        <p className="saved-view-note" role="alert">
          {t('savedViews.missing')}
        </p>
      )}
      <SavedViewsMenu
        views={mine.data ?? []}
        current={onScreen}
        labels={labels}
        onApply={(id) => {
          const view = mine.data?.find((v) => v.id === id);
          if (view) apply(view);
        }}
        onSave={(name) =>
          saveView({ list, name, ...body() }).then((view) => {
            setCurrent(view);
            announce({ tone: 'success', title: t('savedViews.saved', { name: view.name }) });
            return undefined;
          }, failure)
        }
        onRename={(name) =>
          onScreen
            ? changeView(onScreen, { name }).then((view) => {
                setCurrent(view);
                announce({ tone: 'success', title: t('savedViews.renamed', { name: view.name }) });
                return undefined;
              }, failure)
            : Promise.resolve(undefined)
        }
        onCopyLink={() => {
          if (!onScreen) return;
          const href = router.history.createHref(`${path}?view=${encodeURIComponent(onScreen.id)}`);
          const link = new URL(href, window.location.href).href;
          navigator.clipboard.writeText(link).then(
            () => announce({ tone: 'success', title: t('savedViews.copied') }),
            () => announce({ tone: 'info', title: t('savedViews.copyThis', { link }) }),
          );
        }}
        onDelete={() => {
          if (!onScreen) return;
          const view = onScreen;
          deleteView(view).then(
            () => {
              setCurrent(null);
              announce({
                tone: 'success',
                title: t('savedViews.deleted', { name: view.name }),
                action: {
                  label: t('list.undo'),
                  onAction: () =>
                    void saveView({
                      list,
                      name: view.name,
                      search: view.search,
                      columns: view.columns,
                    }).then(
                      (again) => {
                        setCurrent(again);
                        announce({
                          tone: 'info',
                          title: t('savedViews.restored', { name: again.name }),
                        });
                      },
                      (error: unknown) => announce({ tone: 'error', title: failure(error) }),
                    ),
                },
              });
            },
            (error: unknown) => announce({ tone: 'error', title: failure(error) }),
          );
        }}
      />
    </>
  );
}
