import { useMatch, useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { rememberListSearch } from '../api/list-return';
import type { ListSearch } from '../api/list-url';
import type { ListActor } from './list.actor.view';

/**
 * The address flows one way. A change the user makes is written to the address (the machine
 * says what, and whether it adds a history entry: NAVIGATE); whatever the address then reads
 * (that write, back, forward, a pasted link) is the list's query (ADDRESS_CHANGED). Listening
 * starts before the first ADDRESS_CHANGED, whose answer may be the normalised address. A list
 * the user is leaving (a link followed while it still wrote its address) writes nothing: its
 * query would land in the address the user went to (`to: '.'` is the router's latest location).
 */
export function useListAddress(
  actor: ListActor,
  { search, urlState, key }: { search: ListSearch; urlState: boolean; key: string },
) {
  const navigate = useNavigate();
  const router = useRouter();
  const pathname = useMatch({ strict: false, select: (match) => match.pathname });
  useEffect(() => {
    const asked = actor.on('NAVIGATE', (next) => {
      if (withoutSlash(router.latestLocation.pathname) !== withoutSlash(pathname)) return;
      void navigate({ to: '.', search: next.search, replace: next.replace });
    });
    return () => asked.unsubscribe();
  }, [actor, navigate, router, pathname]);
  useEffect(() => {
    if (!urlState) return;
    actor.send({ type: 'ADDRESS_CHANGED', search });
    // A record page opened from here returns to the list as it is now.
    rememberListSearch(key, search);
  }, [urlState, search, actor, key]);
}

const withoutSlash = (path: string) => path.replace(/\/$/, '');

/** The list tells phone from desktop (preselects fill hidden filters on a phone). */
export function useListViewport(actor: ListActor, isMobile: boolean) {
  useEffect(() => {
    actor.send({ type: 'VIEWPORT_CHANGED', isMobile });
  }, [isMobile, actor]);
}
