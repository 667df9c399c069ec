import type { ReactNode } from 'react';
import type { ListDefinition } from '../api/list-url';
import type { RowSchema } from '../api/lists';
import type { ListFilter } from '../../contract/list-query';
import type { ListColumn } from '../ui/dom/list/columns';
import type { FilterDef } from '../ui/dom/list/filter-bar';
import type { ActionMenuItem } from '../ui/dom/list/row-menu';
import type { ListControls } from './list.outcome.view';
import type { Requirement } from './permissions.view';

/** Everything one list screen needs; the route's list definition plus what the screen shows. */
export interface ListScreenConfig<Row extends { id: string }> extends ListDefinition {
  title: string;
  /** Who may see the list; others get a "not available for your role" page. */
  requires: Requirement;
  /** Links to the screens above the list, shown above the title as breadcrumbs ending in it. */
  breadcrumbs?: ReactNode[];
  /** The browser tab's title, most specific first (default: the title). */
  documentTitle?: string[];
  /** The list endpoint, e.g. `v1/assets`. */
  endpoint: string;
  rowSchema: RowSchema<Row>;
  columns: ListColumn<Row>[];
  filters: FilterDef[];
  limit?: number;
  /**
   * A paged list the user may also read as one endless list (a switch beside the title); the
   * endless list keeps its state out of the address, as its page is not one place to link to.
   */
  canScroll?: boolean;
  /** A feed, newest first: rows others add arrive on top of the first page (list machine). */
  newRowsOnTop?: boolean;
  /** The order-update endpoint (menu reorder); `drag` adds drag handles too. */
  reorder?: { endpoint: string; drag?: boolean };
  rowLabel: (row: Row) => string;
  rowActions?: (row: Row, list: ListControls) => ActionMenuItem<Row>[];
  /** Buttons or forms above the list (create, add...). */
  toolbar?: (list: ListControls) => ReactNode;
  /** Other controls above the list (another view of it...), behind More on a phone. */
  toolbarMore?: (list: ListControls) => ReactNode;
  /**
   * With it, rows can be selected (a checkbox each, one per page) and these actions act on
   * the selected ids; the selection stays after a change, less the rows that left the list.
   * `scope` says what "every row matching this filter" is, for actions that offer it.
   */
  bulkActions?: (
    ids: string[],
    list: ListControls,
    scope: BulkScope,
    /** The selected rows as shown (the selection is of rows on screen). */
    selected: Row[],
  ) => ReactNode;
}

/** The rows a bulk bar may act on beyond the selection: every one the list's filter matches. */
export interface BulkScope {
  filter: ListFilter;
  totalDocs: number;
  totalIsEstimate: boolean;
  /** The rows on screen: when every one is selected, the bar may offer all the matches. */
  shown: number;
}

/** The switch between the pager and one endless list, where the list offers it. */
export interface ScrollChoice {
  scrolls: boolean;
  onChange: (scrolls: boolean) => void;
}

/** The name a list screen's choices are remembered by: its endpoint without fixed parameters. */
export const listKey = (config: { endpoint: string }) =>
  config.endpoint.split('?')[0] ?? config.endpoint;
