import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef } from 'react';
import type { AvatarViewerHandle } from '../viewer';
import { z } from 'zod/mini';

// The viewer (three.js, R3F) lives in its own chunks, loaded only by this route.
const AvatarViewer = lazy(() => import('../viewer').then((m) => ({ default: m.AvatarViewer })));

/**
 * A query parameter that is dropped with a console warning when malformed: an embed with
 * one bad option still shows the avatar, never an error page.
 */
const param = <T extends z.core.$ZodType>(name: string, schema: T) =>
  z.catch(z.optional(schema), (ctx) => {
    console.warn(`/embed: ignoring invalid ${name}=${JSON.stringify(ctx.input)}`);
    return undefined;
  });

/** TanStack Router parses values as JSON first, so "true" and "1" arrive as boolean / number. */
const flag = (name: string) =>
  param(
    name,
    z.union([
      z.boolean(),
      z.pipe(
        z.enum(['true', 'false']),
        z.transform((v) => v === 'true'),
      ),
    ]),
  );
const source = z.string().check(z.minLength(1));
const presets = ['Combined', 'AO', 'No AO', 'Split', 'Split AO'] as const;
const qualities = ['Performance', 'Low', 'Medium', 'High', 'Ultra'] as const;

const searchSchema = z.object({
  modelSrc: param('modelSrc', z.union([source, z.array(source)])),
  environment: param('environment', source),
  animationSrc: param('animationSrc', source),
  spawnEffect: param('spawnEffect', source),
  spawnEffectAnimation: param('spawnEffectAnimation', source),
  spawnAnimation: param('spawnAnimation', source),
  // Arrives parsed when it is valid JSON; anything else fails the record check.
  emotion: param('emotion', z.record(z.string(), z.number())),
  ao: param('ao', z.enum(presets)),
  quality: param('quality', z.enum(qualities)),
  scale: param('scale', z.number().check(z.positive())),
  fit: flag('fit'),
  float: flag('float'),
  snap: flag('snap'),
  lockVertical: flag('lockVertical'),
  shadows: flag('shadows'),
});

export const Route = createFileRoute('/embed')({
  validateSearch: searchSchema,
  component: Embed,
});

export type EmbedMessage =
  | { type: 'loaded' }
  | { type: 'spawnFinished' }
  | { type: 'error'; message: string }
  /** The answer to a capture request: the picture, or null while nothing is drawn. */
  | { type: 'capture'; dataUrl: string | null };

/** What the embedding page may ask: `{ type: 'capture', mimeType?, quality? }`. */
const captureRequest = z.object({
  type: z.literal('capture'),
  mimeType: z.optional(z.string()),
  quality: z.optional(z.number()),
});

/** Tells the embedding page (if any) what happened; the messages carry nothing private. */
function post(message: EmbedMessage) {
  if (window.parent !== window) window.parent.postMessage(message, '*');
}

/** /embed: the public avatar viewer alone, full-window on a transparent page, for iframes. */
function Embed() {
  const search = Route.useSearch();
  const viewer = useRef<AvatarViewerHandle>(null);
  // The embedding page cannot read a cross-origin canvas: it asks for a capture instead.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const request = captureRequest.safeParse(event.data);
      if (event.source !== window.parent || !request.success) return;
      const { mimeType, quality } = request.data;
      const reply: EmbedMessage = {
        type: 'capture',
        dataUrl: viewer.current?.capture(mimeType, quality) ?? null,
      };
      // A sandboxed (opaque-origin) parent can only be answered with '*'.
      window.parent.postMessage(reply, event.origin === 'null' ? '*' : event.origin);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
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

  return (
    <main style={{ position: 'fixed', inset: 0 }}>
      <Suspense fallback={null}>
        <AvatarViewer
          ref={viewer}
          modelSrc={search.modelSrc ?? ''}
          environment={search.environment}
          animationSrc={search.animationSrc}
          spawnEffect={
            search.spawnEffect
              ? { src: search.spawnEffect, animationSrc: search.spawnEffectAnimation }
              : undefined
          }
          spawnAnimation={search.spawnAnimation ? { src: search.spawnAnimation } : undefined}
          emotion={search.emotion}
          ao={search.ao}
          quality={search.quality}
          scale={search.scale}
          fit={search.fit}
          float={search.float}
          snap={search.snap}
          lockVertical={search.lockVertical}
          shadows={search.shadows}
          onLoaded={() => post({ type: 'loaded' })}
          onSpawnFinished={() => post({ type: 'spawnFinished' })}
          onError={(error) =>
            post({ type: 'error', message: error instanceof Error ? error.message : String(error) })
          }
        />
      </Suspense>
    </main>
  );
}
