import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface RouteReport {
  route: string;
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

/** The chunk keys a chunk loads statically (itself included). */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, seen);
  return seen;
}

/** The JS a first visit to each route downloads: the entry, plus the route's split chunks. */
export function buildReport(distDir = 'dist'): RouteReport[] {
  const manifest = JSON.parse(
    readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) throw new Error('no entry in the Vite manifest');
  const entry = closure(manifest, entryKey);
  const routes = new Map<string, Set<string>>();
  for (const [key, chunk] of Object.entries(manifest)) {
    const match = /src\/routes\/(.+?)\.tsx\?tsr-split/.exec(chunk.src ?? key);
    if (!match?.[1] || !chunk.isDynamicEntry) continue;
    const route = '/' + match[1].replace(/(^|\/)_app(\/|$)/, '$1').replace(/(^|\/)index$/, '');
    const set = routes.get(route) ?? new Set(entry);
    for (const k of closure(manifest, key)) set.add(k);
    routes.set(route, set);
  }
  const size = (key: string) => {
    const bytes = readFileSync(join(distDir, manifest[key]!.file));
    return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  return [...routes.entries()]
    .map(([route, keys]) => {
      const files = [...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
      const sizes = [...keys].filter((k) => manifest[k]!.file.endsWith('.js')).map(size);
      return {
        route: route.replace(/\/$/, '') || '/',
        files,
        rawBytes: sizes.reduce((s, x) => s + x.raw, 0),
        gzipBytes: sizes.reduce((s, x) => s + x.gzip, 0),
      };
    })
    .sort((a, b) => a.route.localeCompare(b.route));
}
