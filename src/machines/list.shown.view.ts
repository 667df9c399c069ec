import { useSelector } from '@xstate/react';
import { useDeferredValue } from 'react';
import type { SnapshotFrom } from 'xstate';
import type { ListActor } from './list.actor.view';

/**
 * A value of the list the rows go with (the rows, the pages, the total, the load state), as a
 * background render shows it: a page, sort or page size chosen paints the press at once, and
 * the rows, pagers and total of the new page follow together in one time-sliced render (the
 * deferred values of one update render in the same pass). An answer that arrives before that
 * render is done restarts it, so its rows mount once, without skeleton rows before them.
 */
export function useShown<T>(
  actor: ListActor,
  selector: (snapshot: SnapshotFrom<ListActor>) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useDeferredValue(useSelector(actor, selector, compare));
}
