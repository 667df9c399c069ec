import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { eventName, onLiveEvent } from '../../../api/live-cache';
import type { StreamEvent } from '../../../api/schemas';
import { selectUser } from '../../../machines/app-session';
import { useSessionActor } from '../../../machines/session.view';
import { Alert } from '../../../ui/dom/alert';
import { relativeTime } from '../../../machines/entity-editor.view';
import { eventTitle } from './asset-changelog';

/** How often "just now" / "3 minutes ago" is brought up to date. */
const TICK_MS = 30_000;

/** The latest live event of asset `assetId` made by someone else than the signed-in user. */
export function useRemoteEvent(assetId: string | undefined): StreamEvent | null {
  const session = useSessionActor();
  const me = useSelector(session, (s) => selectUser(s)._id);
  const [event, setEvent] = useState<StreamEvent | null>(null);
  useEffect(
    () =>
      onLiveEvent((next) => {
        if (assetId === undefined || next.assetId !== assetId || next.actorId === me) return;
        setEvent(next);
      }),
    [assetId, me],
  );
  return event;
}

/**
 * Says when someone else changed the asset on screen ("Locked by dev@… just now"), from the
 * live stream; the page's data follows by itself (the stream invalidates its reads).
 */
export function RemoteChange({ assetId }: { assetId: string }) {
  const { t, i18n } = useTranslation();
  const event = useRemoteEvent(assetId);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!event) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [event]);
  if (!event) return null;
  const when = relativeTime(event.createdAt, t, i18n.language, now);
  const removed = eventName(event.routingKey).includes('deleted');
  return (
    <Alert tone={removed ? 'error' : 'info'}>
      {t('live.changedBy', {
        change: eventTitle(event, t),
        actor: event.actorEmail ?? t('live.someone'),
        when,
      })}
    </Alert>
  );
}
