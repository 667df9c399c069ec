/**
 * `npm run bench -- first-paint-js [--static-dir DIR]`: for the pages the Lighthouse bench opens
 * (bench/lighthouse.ts), the JavaScript a first visit fetches before the app's first render:
 * the app's modules index.html names (src/boot.ts, written into the page, loads them once the
 * page has painted) and the route's that the server adds to the page (server/spa-preload.ts).
 * Per page: the requests, how many of them are under 2 KB, and their
 * raw and gzip -9 bytes. Against the build in dist/ as it is (npm run build first), or DIR.
 * Counts and bytes, so the machine's load does not move them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { routePages } from '../server/spa-preload';

const PAGES = [
  { name: 'sign-in', path: '/signin' },
  { name: 'dashboard', path: '/' },
  { name: 'assets list', path: '/assets' },
  { name: 'asset page', path: '/assets/any-asset' },
  { name: 'users list', path: '/users' },
  { name: 'Trash', path: '/trash' },
];

/** The scripts a page of `dir` fetches before the app renders: index.html's and the route's. */
function scriptsOf(dir: string, path: string, preloads: (path: string) => string | undefined) {
  const html = readFileSync(join(dir, 'index.html'), 'utf8') + (preloads(path) ?? '');
  const scripts = [...html.matchAll(/<(?:script|link)[^>]*?(?:src|href)="\/([^"]+\.js)"/g)];
  return [...new Set(scripts.map((match) => match[1]!))];
}

export function benchFirstPaintJs(args: string[]) {
  const { values } = parseArgs({ args, options: { 'static-dir': { type: 'string' } } });
  const dir = values['static-dir'] ?? 'dist';
  const pages = routePages(dir);
  const preloads = (path: string) => pages(path)?.links;
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    'page'.padEnd(12),
    'requests'.padStart(9),
    'under 2 KB'.padStart(11),
    'raw'.padStart(11),
    'gzip'.padStart(11),
  );
  for (const page of PAGES) {
    const files = scriptsOf(dir, page.path, preloads).map((file) => readFileSync(join(dir, file)));
    const raw = files.reduce((sum, bytes) => sum + bytes.length, 0);
    const gzip = files.reduce((sum, bytes) => sum + gzipSync(bytes, { level: 9 }).length, 0);
    console.log(
      page.name.padEnd(12),
      String(files.length).padStart(9),
      String(files.filter((bytes) => bytes.length < 2048).length).padStart(11),
      kib(raw).padStart(11),
      kib(gzip).padStart(11),
    );
  }
  return Promise.resolve();
}
