import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { eventName } from '../../../api/live-cache';
import { Alert } from '../../../ui/dom/alert';
import { relativeTime } from '../../../machines/conflict-panel.view';
import { useRemoteEvent } from '../../../machines/shared-edit.view';
import { eventTitle } from './asset-changelog';

/** How often "just now" / "3 minutes ago" is brought up to date. */
const TICK_MS = 30_000;

/**
 * Says when someone else changed the asset on screen ("Locked by dev@… just now"), from the
 * live stream; the page's data follows by itself (the stream invalidates its reads).
 */
export function RemoteChange({ assetId }: { assetId: string }) {
  const { t, i18n } = useTranslation();
  const event = useRemoteEvent('assetId', assetId);
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
