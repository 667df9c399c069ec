/**
 * The tab's one live connection (src/api/live.ts), held by the signed-in shell: it brings the
 * query cache and the lists on screen up to date with every change others make, and answers
 * how the connection is doing for the shell's indicator.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { afterFirstAnswer } from '../api/first-answer';
import { connectLive, type LiveStatus } from '../api/live';
import { applyLiveMessage, liveStatus, onLiveStatus, setLiveStatus } from '../api/live-cache';

/** Connects while `enabled` (a signed-in session); `null` while not connected at all. */
export function useLiveConnection(enabled: boolean): LiveStatus | null {
  const [status, setStatus] = useState<LiveStatus | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const close = connectLive({
      // After the page's first answer is drawn: its own reads come first on a slow network.
      ready: afterFirstAnswer,
      onMessage: applyLiveMessage,
      onStatus: (next) => {
        setStatus(next);
        setLiveStatus(next);
      },
    });
    return () => {
      close();
      setStatus(null);
      setLiveStatus(null);
    };
  }, [enabled]);
  return status;
}

/** Whether the tab's live stream is up (screens poll less while it is). */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(onLiveStatus, liveStatus) === 'connected';
}
