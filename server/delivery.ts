/**
 * The delivery version of a model (issue 25): the same avatar in fewer bytes, derived from the
 * uploaded .glb with glTF-Transform and served to the studio's own viewers (server/README.md
 * "Delivery versions"). Unused data is pruned, duplicates merged, vertices welded, animations
 * resampled, geometry (morph targets and animations included) quantized and meshopt-compressed
 * (EXT_meshopt_compression: the viewer has its decoder), and textures re-encoded as WebP
 * (EXT_texture_webp) no larger than DELIVERY_TEXTURE_SIZE. Skins, morph targets and animations
 * are kept: only their encoding changes.
 *
 * Why WebP and not KTX2/Basis (measured by bench/textures.ts, server/README.md "Delivery
 * versions"): on the fixture avatars ETC1S files are 1.8-2.4x the WebP ones at quality 80
 * (WEBP_QUALITY) and UASTC 11-14x, and the viewer would first fetch a 263 KB (gzip) transcoder;
 * on a slow connection that costs seconds before the first frame, against tens of milliseconds
 * of decoding saved. Basis would keep the textures compressed on the GPU (a quarter of the
 * memory), which matters for many avatars in one scene, not for one.
 *
 * The work runs in a worker thread (server/threads.ts) with a time and a heap limit, after the
 * declared-size limits (core/files/gltf-limits.ts) are checked; sharp's image memory is outside
 * the V8 heap, so images are bounded by those limits (8192² pixels each) and sharp runs one
 * image at a time without a cache.
 */
import { runInThread, ThreadLimitError, type ThreadLimits } from './threads';

/** Derivation limits: a fixture avatar takes 2-4 s on one core. */
export const DELIVERY_LIMITS: ThreadLimits = { timeoutMs: 120_000, heapMb: 1024 };

/** A model the derivation cannot work on; the message is shown on the asset page as is. */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** What a derivation made: the delivery bytes, or why the original is delivered. */
export type Derived = { kind: 'derived'; bytes: Uint8Array } | { kind: 'original'; reason: string };

/**
 * deriveDelivery in a worker thread, on the model's bytes or on what `model` reads once a
 * thread is free (see runInThread); rejects with DeliveryError when the model cannot be worked
 * on, or when the work passes `limits` (the message says which).
 */
export async function deriveInThread(
  model: Uint8Array | (() => Promise<Uint8Array>),
  limits: ThreadLimits = DELIVERY_LIMITS,
): Promise<Derived> {
  try {
    return await runInThread<Derived>(
      new URL('./delivery.worker.ts', import.meta.url),
      model,
      limits,
      (failure) => new DeliveryError(failure.message),
    );
  } catch (error) {
    if (!(error instanceof ThreadLimitError)) throw error;
    throw new DeliveryError(
      error.reason === 'timeout'
        ? `The derivation took too long (${error.message.toLowerCase()})`
        : error.reason === 'memory'
          ? `The derivation needed too much memory (${error.message.toLowerCase()})`
          : error.message,
    );
  }
}
