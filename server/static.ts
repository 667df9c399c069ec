/**
 * Serves the built SPA next to the API: hashed files under /assets/ are cached forever, every
 * other file and the index.html fallback (client-side routes) are revalidated on each load.
 * Brotli or gzip copies made at build time are sent to browsers that accept them. A path that
 * names a file (its last segment has a dot) and is not in the build answers 404, not the page.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Env, Hono, MiddlewareHandler } from 'hono';
import { embedPreloadLinks } from './embed-preload';
import { isApiPath } from './http/paths';
import { firstPaint } from './first-paint';
import { routePages, type RoutePage } from './spa-preload';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';
/** The element index.html gives React; a signed-in screen's frame is drawn after it. */
const ROOT = '<div id="root"></div>';

/** A back office has nothing for search engines; this keeps well-behaved crawlers out. */
const ROBOTS_TXT = 'User-agent: *\nDisallow: /\n';

/** True when `dir` holds a built SPA. */
export function hasSpa(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}

/**
 * True when `path` names a source map, in any spelling or encoding a client could ask for:
 * `x.js.map`, `x.js.MAP`, `x.js.map.gz`, `x.js.map.br` (`path` arrives percent-decoded).
 */
function isSourceMapPath(path: string): boolean {
  return /\.map(\.(gz|br|zst))*$/i.test(path);
}

/** The build the server serves, as the pages need it. */
interface SpaBuild {
  stamp: string;
  html: string;
  pages: (path: string) => RoutePage | undefined;
  firstPaint: (path: string) => string | undefined;
  /** The Content-Security-Policy sources that allow index.html's inline scripts (their hashes). */
  inlineScripts: string[];
}

/** The build in `dir`, read again when it changes (npm run build beside a running server). */
export interface SpaFiles {
  dir: string;
  current: () => SpaBuild | undefined;
}

/**
 * `'sha256-…'` for each inline script of `html` (the page's loader, src/boot.ts, which the
 * build writes into the page), for the Content-Security-Policy to allow exactly those.
 */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    ([, code]) =>
      `'sha256-${createHash('sha256')
        .update(code ?? '')
        .digest('base64')}'`,
  );
}

/**
 * The build in `dir`: index.html naming the files of the route asked for (./spa-preload.ts),
 * and for a signed-in screen its frame and heading (./first-paint.ts). Read again when the
 * build changes, as serveStatic serves a new build.
 */
export function spaFiles(dir: string): SpaFiles {
  let build: SpaBuild | undefined;
  const current = () => {
    const stamp = ['index.html', '.vite/manifest.json', '.vite/first-paint.json']
      .map((name) => statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs)
      .join();
    if (build?.stamp !== stamp && existsSync(join(dir, 'index.html'))) {
      const html = readFileSync(join(dir, 'index.html'), 'utf8');
      build = {
        stamp,
        html,
        pages: routePages(dir),
        firstPaint: firstPaint(dir),
        inlineScripts: inlineScriptHashes(html),
      };
    }
    return build;
  };
  return { dir, current };
}

/**
 * Adds the SPA routes to `app`; returns false (and adds nothing) without `dir`/index.html.
 * `sourceMaps: false` (production) answers 404 for the build's source maps, however named.
 * `publicUrl`: where users reach the app (PUBLIC_URL), for /embed's preload links.
 */
export function mountSpa<E extends Env>(
  app: Hono<E>,
  spa: SpaFiles,
  { sourceMaps, publicUrl }: { sourceMaps: boolean; publicUrl?: string },
): boolean {
  const { dir } = spa;
  if (!hasSpa(dir)) return false;
  // The build writes .br/.gz beside each file (scripts/compress-dist.ts).
  const files = serveStatic<E>({ root: dir, precompressed: true });
  const index = serveStatic<E>({ root: dir, path: 'index.html', precompressed: true });
  // /embed is a page of its own (embed.html): the viewer without the back office.
  const embed = serveStatic<E>({ root: dir, path: 'embed.html', precompressed: true });
  // Returns the file's response, or undefined when serveStatic found nothing.
  const serve = async (
    handler: MiddlewareHandler<E>,
    c: Context<E, string>,
    cacheControl: string,
  ) => {
    let found = true;
    const response = await handler(c, () => {
      found = false;
      return Promise.resolve();
    });
    if (!found || !(response instanceof Response)) return undefined;
    response.headers.set('Cache-Control', cacheControl);
    return response;
  };
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const path = c.req.path;
    if (isApiPath(path)) return next();
    if (!sourceMaps && isSourceMapPath(path)) return next();
    if (path === '/robots.txt') {
      c.header('Cache-Control', 'public, max-age=86400');
      return c.text(ROBOTS_TXT);
    }
    // Build files live under /assets/ and always have an extension; /assets/new or
    // /assets/<id> are client-side routes of the same name.
    const hashed = /^\/assets\/[^/]+\.[a-z0-9]+$/i.test(path);
    // `/` is the dashboard's route, not the folder's index.html: it gets its route's page below.
    const file = path === '/' ? undefined : await serve(files, c, hashed ? IMMUTABLE : NO_CACHE);
    if (file) return file;
    // A missing hashed file is a real 404: answering HTML for a script fails more confusingly.
    // So is any other file-like name (favicon.ico, sitemap.xml, probes for .php or .env): the
    // client's routes never have a dot in their last segment, and a 200 page would tell a
    // crawler or a scanner the file exists.
    if (hashed || /\.[^/]*$/.test(path)) return next();
    if (path === '/embed' || path === '/embed/') {
      const page = await serve(embed, c, NO_CACHE);
      const url = new URL(c.req.url);
      const origins = publicUrl ? [url.origin, publicUrl] : [url.origin];
      const links = embedPreloadLinks(url.searchParams, origins);
      if (page && links) page.headers.set('Link', links);
      return page ?? next();
    }
    const page = spa.current();
    const route = page?.pages(path);
    if (page && route && page.html.includes('</head>')) {
      c.header('Cache-Control', NO_CACHE);
      let html = page.html.replace('</head>', `  ${route.links}\n  </head>`);
      const frame = route.signedIn ? page.firstPaint(path) : undefined;
      if (frame) html = html.replace(ROOT, `${ROOT}\n    ${frame}`);
      return c.html(html);
    }
    return (await serve(index, c, NO_CACHE)) ?? next();
  });
  return true;
}
