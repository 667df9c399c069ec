import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deliverySources } from '../../../core/model-delivery';
import type { EmbedEvent } from '../../embed-protocol';
import { AvatarViewer, NoMeshError, type AvatarViewerHandle } from '../../viewer';
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
} from './messages';
import type { EmbedSearch } from './options';

/**
 * /embed: the public avatar viewer alone, full-window on a transparent page, for iframes. It
 * takes its model and options from the address or from messages of the embedding page (the
 * protocol: src/embed-protocol.ts).
 */
export function EmbedPage({ search }: { search: EmbedSearch }) {
  const { t } = useTranslation();
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

  // A layout effect: the page listens, and says `ready`, before the viewer (whose effects run
  // first, as a child's do) announces `loading`.
  useLayoutEffect(() => {
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
  // Models this studio stores load as their delivery versions (core/model-delivery.ts).
  const modelSrc = useMemo(
    () =>
      settings.modelSrc === undefined
        ? undefined
        : deliverySources(settings.modelSrc, [window.location.origin]),
    [settings.modelSrc],
  );
  return (
    <main style={{ position: 'fixed', inset: 0 }}>
      {modelSrc === undefined ? (
        <p role="status" style={hintStyle}>
          {t('viewer.hint')}
        </p>
      ) : (
        <AvatarViewer
          ref={viewer}
          modelSrc={modelSrc}
          {...viewerOptions(settings)}
          label={t('viewer.label')}
          texts={{
            loading: t('viewer.loading'),
            failed: t('viewer.failed'),
            retry: t('viewer.retry'),
            noMesh: t('viewer.noMesh'),
          }}
          onLoading={() => post({ type: 'loading' })}
          onLoaded={() => post({ type: 'loaded' })}
          onSpawnFinished={() => post({ type: 'spawnFinished' })}
          onError={(error) =>
            post({
              type: 'error',
              cause: 'viewer',
              message: error instanceof Error ? error.message : String(error),
              ...(error instanceof NoMeshError && { code: error.code }),
            })
          }
        />
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
