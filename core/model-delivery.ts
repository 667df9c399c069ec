/**
 * Where the studio's viewers load a model the studio stores (docs/api.md
 * "Delivery versions"): its delivery version, the same avatar in fewer bytes, rather than the
 * file as uploaded. Used by the asset page, the icon rendering, /embed and /embed's preload;
 * any other address (a model elsewhere, a data: URL) is left as it is.
 */
/** A GLB this studio stores, as a same-origin path (`/files/<key>.glb`, server/storage.ts). */
const STORED_GLB = /^\/files\/[0-9a-f]{24}\.glb$/;

/**
 * The address that serves `modelSrc`'s delivery version (or the model itself until it has one)
 * when it is a model the studio stores: a path, or an absolute address on one of
 * `studioOrigins` (the page's own origin; on the server also PUBLIC_URL's); `modelSrc`
 * unchanged otherwise.
 */
export function deliveryAddress(modelSrc: string, studioOrigins: readonly string[] = []): string {
  if (STORED_GLB.test(modelSrc)) return `${modelSrc}?delivery`;
  if (studioOrigins.length === 0 || !/^https?:\/\//i.test(modelSrc)) return modelSrc;
  let url: URL;
  try {
    url = new URL(modelSrc);
  } catch {
    return modelSrc;
  }
  const stored =
    studioOrigins.includes(url.origin) && STORED_GLB.test(url.pathname) && !url.search && !url.hash;
  return stored ? `${url.href}?delivery` : modelSrc;
}

/** The file to show for an asset's model: its delivery version once ready, else the model. */
export function deliveredModelUrl(asset: {
  modelUrl: string | null;
  modelDelivery?: { status: string; url: string | null } | null;
}): string | null {
  const delivery = asset.modelDelivery;
  return delivery?.status === 'ready' && delivery.url ? delivery.url : asset.modelUrl;
}

/** `modelSrc` (one source or a list) with each stored model's address as its delivery's. */
export function deliverySources<T>(
  modelSrc: T | T[],
  studioOrigins: readonly string[] = [],
): T | T[] {
  const delivered = (source: T) =>
    (typeof source === 'string' ? deliveryAddress(source, studioOrigins) : source) as T;
  return Array.isArray(modelSrc) ? modelSrc.map(delivered) : delivered(modelSrc);
}
