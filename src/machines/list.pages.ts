// The pages a list shows, observed in the query cache (list.machine.ts invokes this).
import { QueryObserver, type QueryClient, type QueryObserverResult } from '@tanstack/query-core';
import { fromCallback } from 'xstate';
import { fetchList, listPageQuery, type ListResponse, type ReadPage } from '../api/lists';
import { queryClient } from '../api/query';
import type { PagesAnswer, PagesEvent, PagesInput } from './list.types';

/** What the machine may ask of the pages it observes. */
export type PagesCommand =
  /** Read every page again (SYNC: others changed what the list shows). */
  | { type: 'REFETCH' }
  /** Read again the pages whose read failed (RETRY). */
  | { type: 'RETRY' }
  /** Observe one page more, below the others (LOAD_MORE in an infinite list). */
  | { type: 'MORE' };

/** Where the pages come from: tests give their own cache and requests. */
export interface PagesSource {
  client?: QueryClient;
  read?: ReadPage;
  /** How long a page read stays fresh (default: the lists' LIST_STALE_MS). */
  staleTime?: number;
}

/** The pages side by side as one answer; the totals are the last page's. */
function answerOf(pages: ListResponse[]): PagesAnswer {
  const last = pages.at(-1)?.pagination;
  return {
    rows: pages.flatMap((page) => page.data),
    pages: pages.length,
    totalDocs: last?.totalDocs ?? 0,
    totalIsEstimate: last?.totalIsEstimate ?? false,
    totalPages: last?.totalPages ?? 0,
    hasNextPage: last?.hasNextPage ?? false,
  };
}

/**
 * Observes pages `input.first`..`input.last` of a list, one QueryObserver per page keyed like
 * every read of that page (listQueryKey): two lists showing the same page share its request, a
 * page read within its stale time comes from the cache, and an invalidation of the list reads
 * the observed pages again at once. An infinite list's pages are observed one after the other,
 * each once the one above says there is a next, so a start at page n reads 1..n in turn; MORE
 * adds the next one. Stopping the actor unsubscribes: a read that no one else observes is
 * cancelled.
 *
 * The machine is told after every read of them all: PAGES_READ once no page is being read and
 * every page has its rows, PAGES_FAILED once none is being read and one failed (the cache keeps
 * the rows it had: the machine decides what that means on screen). A stale page is read before
 * it is reported, never shown as it was.
 */
export const observePages = ({
  client = queryClient,
  read = fetchList,
  staleTime,
}: PagesSource = {}) =>
  fromCallback<PagesCommand, PagesInput, PagesEvent>(({ input, sendBack, receive }) => {
    const observers: QueryObserver<ListResponse>[] = [];
    const stops: (() => void)[] = [];
    let wanted = input.last - input.first + 1;
    // Set while a read is under way, until the machine has been told how it went.
    let reading = true;
    // When that read began: a page read later saw every change stored before it.
    let startedAt = Date.now();
    const startReading = () => {
      if (!reading) startedAt = Date.now();
      reading = true;
    };

    function watch(page: number) {
      const { limit, order, filter } = input;
      const observer = new QueryObserver(client, {
        ...listPageQuery(input.endpoint, { page, limit, order, filter }, input.rowSchema, read),
        ...(staleTime === undefined ? {} : { staleTime }),
        // REFRESH reads from the server even when the cache holds the page fresh.
        refetchOnMount: input.fresh ? 'always' : true,
        // Changes by others come through the live stream, which has the list look itself and
        // merge them in place (REMOTE_CHANGED), and reads everything again after a gap.
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      });
      observers.push(observer);
      // Subscribing reads the page unless the cache holds it fresh; either way, look again.
      stops.push(observer.subscribe(report));
      report();
    }

    function report() {
      const results: QueryObserverResult<ListResponse>[] = observers.map((observer) =>
        observer.getCurrentResult(),
      );
      if (results.some((result) => result.fetchStatus !== 'idle' || result.isPending)) {
        startReading();
        return;
      }
      if (!reading) return;
      const failed = results.find((result) => result.isError);
      if (failed) {
        reading = false;
        sendBack({ type: 'PAGES_FAILED', error: failed.error });
        return;
      }
      const pages = results.map((result) => result.data as ListResponse);
      if (observers.length < wanted && pages.at(-1)?.pagination.hasNextPage) {
        watch(input.first + observers.length);
        return;
      }
      reading = false;
      sendBack({ type: 'PAGES_READ', answer: answerOf(pages), startedAt });
    }

    receive((command) => {
      startReading();
      if (command.type === 'MORE') {
        wanted += 1;
        report();
        return;
      }
      for (const observer of observers) {
        if (command.type === 'REFETCH' || observer.getCurrentResult().isError) {
          void observer.refetch();
        }
      }
      // Nothing to read again (no page failed): the machine is told what there is.
      report();
    });

    watch(input.first);
    return () => {
      for (const stop of stops) stop();
    };
  });
