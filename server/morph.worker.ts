/** The worker thread of morphModelInThread (server/morph.ts). */
import { morphModel, type MorphOrigin } from './morph';
import { serveThread } from './threads';

serveThread(
  ({ source, body, origin }: { source: Uint8Array; body: Uint8Array; origin: MorphOrigin }) =>
    morphModel(source, body, origin),
);
