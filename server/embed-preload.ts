/**
 * `/embed` names its model and environment in its address, so the server can tell the browser
 * to fetch them with the page itself (`Link: <…>; rel=preload`), before any script has run:
 * the model and the environment no longer wait for the app's chunks.
 * Only the studio's own addresses are named: paths, and http(s) ones on the origins the page is
 * reached at. Another site's would be fetched only to be refused by the page's policy, and an
 * answer of ours should not point at a site an address's query chose. No data: URLs, and no
 * more than a few models of a list; anything else is left to the viewer, which checks its
 * options itself.
 */
import {
  ENVIRONMENT_PRESET_EXTENSION,
  ENVIRONMENT_PRESET_FILES,
  ENVIRONMENT_URL_DIR,
} from '../core/environment-presets';
import { deliveryAddress } from '../core/model-delivery';
import { MODEL_FILE } from '../core/model-file';

/** The viewer's default environment (src/ui/canvas/environments.ts). */
const DEFAULT_ENVIRONMENT = 'city';
/** At most this many models are preloaded (a modelSrc may list several). */
const MAX_MODELS = 4;

/**
 * The address to preload for `value`, or undefined when it is not a path or an http(s) one on
 * one of `studioOrigins`.
 */
function preloadable(value: string, studioOrigins: readonly string[]): string | undefined {
  if (value.startsWith('/') && !value.startsWith('//')) {
    const url = new URL(value, 'http://same-origin.invalid');
    return `${url.pathname}${url.search}`;
  }
  try {
    const url = new URL(value);
    return studioOrigins.includes(url.origin) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The model addresses in `modelSrc`: only those the viewer would load (.glb/.fbx). */
function modelAddresses(modelSrc: string | undefined): string[] {
  if (!modelSrc) return [];
  if (!modelSrc.trimStart().startsWith('[')) return MODEL_FILE.test(modelSrc) ? [modelSrc] : [];
  try {
    const list: unknown = JSON.parse(modelSrc);
    return Array.isArray(list)
      ? list.filter((item): item is string => typeof item === 'string' && MODEL_FILE.test(item))
      : [];
  } catch {
    return [];
  }
}

/**
 * A preset's file, or a custom address the page itself fetches. Not an .hdr or .exr one: the
 * viewer's prefilter worker fetches those, and a worker cannot take the page's preloaded answer
 * (the file would come twice).
 */
function environmentAddress(
  environment: string | undefined,
  studioOrigins: readonly string[],
): string | undefined {
  const value = environment || DEFAULT_ENVIRONMENT;
  if (Object.hasOwn(ENVIRONMENT_PRESET_FILES, value))
    return `/${ENVIRONMENT_URL_DIR}/${ENVIRONMENT_PRESET_FILES[value as keyof typeof ENVIRONMENT_PRESET_FILES]}${ENVIRONMENT_PRESET_EXTENSION}`;
  const address = preloadable(value, studioOrigins);
  return address && !/\.(hdr|exr)$/i.test(new URL(address, 'http://same-origin.invalid').pathname)
    ? address
    : undefined;
}

/**
 * The `Link` header for an /embed address's search parameters, or undefined without a model.
 * Fetched like the viewer fetches them (`fetch`, same-origin credentials), so the browser
 * hands the preloaded answers to the viewer. `studioOrigins`: the origins the page may be
 * reached at (the request's, PUBLIC_URL's), whose stored models it loads as delivery versions.
 */
export function embedPreloadLinks(
  search: URLSearchParams,
  studioOrigins: readonly string[] = [],
): string | undefined {
  // The addresses the page loads: stored models as their delivery versions.
  const models = modelAddresses(search.get('modelSrc') ?? undefined)
    .slice(0, MAX_MODELS)
    .flatMap((model) => preloadable(deliveryAddress(model, studioOrigins), studioOrigins) ?? []);
  if (models.length === 0) return undefined;
  const environment = environmentAddress(search.get('environment') ?? undefined, studioOrigins);
  return [...models, ...(environment ? [environment] : [])]
    .map((address) => `<${address}>; rel=preload; as=fetch; crossorigin=anonymous`)
    .join(', ');
}
