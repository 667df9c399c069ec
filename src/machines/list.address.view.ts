import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { rememberListSearch } from '../api/list-return';
import type { ListSearch } from '../api/list-url';
import type { ListActor } from './list.actor.view';

/**
 * The address flows one way. A change the user makes is written to the address (the machine
 * says what, and whether it adds a history entry: NAVIGATE); whatever the address then reads
 * (that write, back, forward, a pasted link) is the list's query (ADDRESS_CHANGED). Listening
 * starts before the first ADDRESS_CHANGED, whose answer may be the normalised address.
 */
export function useListAddress(
  actor: ListActor,
  { search, urlState, key }: { search: ListSearch; urlState: boolean; key: string },
) {
  const navigate = useNavigate();
  useEffect(() => {
    const asked = actor.on('NAVIGATE', (next) => {
      void navigate({ to: '.', search: next.search, replace: next.replace });
    });
    return () => asked.unsubscribe();
  }, [actor, navigate]);
  useEffect(() => {
    if (!urlState) return;
    actor.send({ type: 'ADDRESS_CHANGED', search });
    // A record page opened from here returns to the list as it is now.
    rememberListSearch(key, search);
  }, [urlState, search, actor, key]);
}

/** The list tells phone from desktop (preselects fill hidden filters on a phone). */
export function useListViewport(actor: ListActor, isMobile: boolean) {
  useEffect(() => {
    actor.send({ type: 'VIEWPORT_CHANGED', isMobile });
  }, [isMobile, actor]);
}
