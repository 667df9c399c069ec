import { useEffect } from 'react';
import { onListChange } from '../api/live-cache';
import type { ListActor } from './list.actor.view';

/** Changes by others (the live stream): rows update in place, new ones above wait for "show". */
export function useLiveList(actor: ListActor, endpoint: string) {
  useEffect(
    () =>
      onListChange((shows) => {
        if (shows === 'all' || shows(endpoint)) actor.send({ type: 'REMOTE_CHANGED' });
      }),
    [actor, endpoint],
  );
}
