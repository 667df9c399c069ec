/**
 * The scripts each client route needs, read from the build's Vite manifest, so the page names
 * them in its <head>: the browser fetches the screen's code with the start-up
 * bundle, in one wave, rather than after it (the router asks for a screen's chunk only once the
 * start-up bundle has run). On a phone's network the second wave was most of the first paint.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** A route's address as tokens: a literal segment, or null for a parameter ($id). */
type Pattern = (string | null)[];

interface RouteFiles {
  pattern: Pattern;
  scripts: string[];
  /** Under the signed-in layout (`_app`). */
  signedIn: boolean;
}

/** What the page of a route names in its <head>, and whether the route is signed-in. */
export interface RoutePage {
  links: string;
  signedIn: boolean;
}

/** Keys of the chunks `key` loads statically, itself included. */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const dep of manifest[key].imports ?? []) closure(manifest, dep, into);
  return into;
}

/**
 * A route file's address (TanStack Router's flat file names): `_app/assets.$assetId` is
 * /assets/$assetId. Segments starting with `_` are pathless layouts; `index` is the parent's own.
 */
function patternOf(file: string): Pattern {
  return file
    .split('/')
    .filter((segment) => !segment.startsWith('_'))
    .flatMap((segment) => segment.split('.'))
    .filter((token) => token !== 'index' && token !== 'route' && token !== '')
    .map((token) => (token.startsWith('$') ? null : token));
}

/** The layouts above a route file: `_app/assets.index` is under `_app`. */
function layoutsOf(file: string): string[] {
  const parts = file.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** How well `segments` fit `pattern`: the number of literal matches, or -1 when they do not fit. */
function fit(pattern: Pattern, segments: string[]): number {
  if (pattern.length !== segments.length) return -1;
  let literals = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const token = pattern[i];
    if (token === null) continue;
    if (token !== segments[i]) return -1;
    literals += 1;
  }
  return literals;
}

const ROUTE_CHUNK = /^src\/routes\/(.+?)\.tsx\?tsr-split=(.+)$/;

/**
 * What a layout's loader (in the start-up bundle) imports before any screen under it shows: the
 * signed-in layout's texts (src/i18n.ts) and the abilities (src/machines/permissions.view.tsx).
 * By manifest key, as the manifest names them; a key a build lacks is left out.
 */
const LAYOUT_LOADS: Record<string, string[]> = {
  _app: ['src/locales/en-back-office.ts', 'contract/ability.ts'],
};

/**
 * Reads `dir`'s manifest; answers, for a path, the <link> tags of the files its route loads
 * beyond what index.html already names, and whether the route is in the signed-in area
 * (undefined: no manifest, or no route of that path).
 */
export function routePages(dir: string): (path: string) => RoutePage | undefined {
  const file = join(dir, '.vite', 'manifest.json');
  if (!existsSync(file)) return () => undefined;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  const entry = entryKey ? closure(manifest, entryKey) : new Set<string>();
  // The chunk holding a route file's component (and loader), by route file.
  const components = new Map<string, string>();
  for (const key of Object.keys(manifest)) {
    const match = ROUTE_CHUNK.exec(key);
    if (match?.[1] && match[2]?.split('---').includes('component')) components.set(match[1], key);
  }
  const routes: RouteFiles[] = [];
  for (const [routeFile, key] of components) {
    // Route folders (`-chunks`, `-components`) hold no routes; layouts get no page of their own.
    if (routeFile.split('/').some((part) => part.startsWith('-'))) continue;
    if ([...components.keys()].some((other) => other.startsWith(`${routeFile}/`))) continue;
    const keys = new Set<string>();
    for (const layout of layoutsOf(routeFile)) {
      const layoutKey = components.get(layout);
      if (layoutKey) closure(manifest, layoutKey, keys);
      for (const loaded of LAYOUT_LOADS[layout] ?? []) closure(manifest, loaded, keys);
    }
    closure(manifest, key, keys);
    const needed = [...keys].filter((k) => !entry.has(k));
    routes.push({
      pattern: patternOf(routeFile),
      scripts: needed.map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js')),
      signedIn: layoutsOf(routeFile).includes('_app'),
    });
  }
  const cache = new Map<RouteFiles, RoutePage>();
  // The scripts go in an inert template that src/boot.ts makes live once the page has painted
  // (the build makes one stylesheet, which index.html names).
  const tags = (route: RouteFiles) =>
    `<template class="app-modules">${route.scripts
      .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`)
      .join('')}</template>`;
  return (path) => {
    const segments = path.split('/').filter(Boolean);
    let best: RouteFiles | undefined;
    let bestFit = -1;
    for (const route of routes) {
      const score = fit(route.pattern, segments);
      if (score > bestFit) [best, bestFit] = [route, score];
    }
    if (!best) return undefined;
    let page = cache.get(best);
    if (page === undefined)
      cache.set(best, (page = { links: tags(best), signedIn: best.signedIn }));
    return page;
  };
}
