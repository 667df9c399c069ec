import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmbedEvent } from '../embed-protocol';
import { DotLoader } from '../ui/canvas/dot-loader';
import type { AvatarViewerHandle } from '../viewer';
import {
  addChanges,
  embedSettings,
  eventTargetOrigin,
  isAllowedOrigin,
  parseAllowedOrigins,
  parseRequest,
  replyTargetOrigin,
  viewerOptions,
  type EmbedChanges,
} from './-embed/messages';
import { searchSchema } from './-embed/options';

// The viewer (three.js, R3F) lives in its own chunks, loaded only by this route.
const loadViewer = () => import('../viewer');
const AvatarViewer = lazy(() => loadViewer().then((m) => ({ default: m.AvatarViewer })));

export const Route = createFileRoute('/embed')({
  validateSearch: searchSchema,
  component: Embed,
});

/**
 * /embed: the public avatar viewer alone, full-window on a transparent page, for iframes. It
 * takes its model and options from the address or from messages of the embedding page (the
 * protocol: src/embed-protocol.ts).
 */
function Embed() {
  const { t } = useTranslation();
  const search = Route.useSearch();
  const viewer = useRef<AvatarViewerHandle>(null);
  const [changes, setChanges] = useState<EmbedChanges>({});
  const allowed = useMemo(
    () => parseAllowedOrigins(search.allowedOrigins),
    [search.allowedOrigins],
  );

  /** Tells the embedding page (if any) what happened; events carry nothing private. */
  const post = (event: EmbedEvent) => {
    if (window.parent !== window) window.parent.postMessage(event, eventTargetOrigin(allowed));
  };

  useEffect(() => {
    if (window.parent === window) return;
    const onMessage = (event: MessageEvent) => {
      // Only the embedding page, and only from an allowed origin; everything else is ignored.
      if (event.source !== window.parent || !isAllowedOrigin(event.origin, allowed)) return;
      const reply = (message: EmbedEvent) =>
        window.parent.postMessage(message, replyTargetOrigin(event.origin));
      const parsed = parseRequest(event.data);
      if ('error' in parsed) {
        reply({ type: 'error', cause: 'request', message: parsed.error });
      } else if (parsed.request.type === 'capture') {
        // The embedding page cannot read a cross-origin canvas: it asks for a capture instead.
        const { mimeType, quality } = parsed.request;
        reply({ type: 'capture', dataUrl: viewer.current?.capture(mimeType, quality) ?? null });
      } else {
        const { request } = parsed;
        setChanges((current) => addChanges(current, request));
      }
    };
    window.addEventListener('message', onMessage);
    const ready: EmbedEvent = { type: 'ready' };
    window.parent.postMessage(ready, eventTargetOrigin(allowed));
    return () => window.removeEventListener('message', onMessage);
  }, [allowed]);

  // The viewer's code downloads while the embedding page is still getting its model ready.
  useEffect(() => {
    loadViewer().catch(() => {});
  }, []);

  useEffect(() => {
    const root = document.documentElement;
    const [rootBackground, bodyBackground] = [
      root.style.background,
      document.body.style.background,
    ];
    root.style.background = document.body.style.background = 'transparent';
    return () => {
      root.style.background = rootBackground;
      document.body.style.background = bodyBackground;
    };
  }, []);

  const settings = embedSettings(search, changes);
  const { modelSrc } = settings;
  return (
    <main style={{ position: 'fixed', inset: 0 }}>
      {modelSrc === undefined ? (
        <p role="status" style={hintStyle}>
          {t('viewer.hint')}
        </p>
      ) : (
        <Suspense fallback={<DotLoader label={t('viewer.loading')} />}>
          <AvatarViewer
            ref={viewer}
            modelSrc={modelSrc}
            {...viewerOptions(settings)}
            label={t('viewer.label')}
            texts={{
              loading: t('viewer.loading'),
              failed: t('viewer.failed'),
              retry: t('viewer.retry'),
            }}
            onLoading={() => post({ type: 'loading' })}
            onLoaded={() => post({ type: 'loaded' })}
            onSpawnFinished={() => post({ type: 'spawnFinished' })}
            onError={(error) =>
              post({
                type: 'error',
                cause: 'viewer',
                message: error instanceof Error ? error.message : String(error),
              })
            }
          />
        </Suspense>
      )}
    </main>
  );
}

const hintStyle = {
  position: 'absolute',
  inset: 0,
  margin: 0,
  padding: 16,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  textAlign: 'center',
} as const;
