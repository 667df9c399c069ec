/**
 * What a page of the signed-in area shows before its scripts run: the app's frame (the sidebar
 * with the brand, the header) and the screen's heading, in the app's own class names, so the
 * stylesheet in the <head> paints them at first paint. On a phone's network the scripts take
 * seconds to arrive; the heading, the page's largest text, then no longer waits for them.
 *
 * It sits after `<div id="root">`, not inside it: React's first commit there is empty (the
 * router is still loading the screen), and would blank the page for a moment. The stylesheet
 * hides it as soon as the app has drawn anything into #root, in the same frame
 * (src/ui/dom/app-shell.css), and the app removes it then (src/ui/dom/first-paint.ts).
 *
 * The server does not know who is signed in (the session lives in the browser's storage), so
 * the frame holds no navigation, account or record: a visitor who is not signed in sees the
 * frame and the heading until the app sends them to the sign-in form.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written by the build (vite.config.ts, `firstPaintTexts`). */
interface FirstPaintTexts {
  appName: string;
  /** The heading each screen draws first, by its address. */
  headings: Record<string, string>;
}

const escape = (text: string) =>
  text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c,
  );

/**
 * Reads `dir`'s first-paint texts; answers, for the path of a signed-in screen, the markup to
 * put after #root (undefined: a build without the texts).
 */
export function firstPaint(dir: string): (path: string) => string | undefined {
  const file = join(dir, '.vite', 'first-paint.json');
  if (!existsSync(file)) return () => undefined;
  const texts = JSON.parse(readFileSync(file, 'utf8')) as FirstPaintTexts;
  const brand =
    '<p class="brand"><span class="brand-mark" aria-hidden="true"></span> ' +
    `<span>${escape(texts.appName)}</span></p>`;
  // Hidden stand-ins of the header's tallest control (Sign out on a wide screen, Menu on a
  // phone) give the header its height, so the heading does not move when the app draws it.
  const header =
    `<header class="app-header">${brand}` +
    '<div class="account"><span class="button first-paint-place" aria-hidden="true">&nbsp;</span></div>' +
    '<span class="button menu-button first-paint-place" aria-hidden="true">&nbsp;</span></header>';
  return (path) => {
    const heading = texts.headings['/' + path.split('/').filter(Boolean).join('/')];
    const main = heading ? `<h1>${escape(heading)}</h1>` : '';
    return (
      `<div class="app-shell first-paint"><div class="app-sidebar">${brand}</div>` +
      `<div class="app-frame">${header}<main class="app-main">${main}</main></div></div>`
    );
  };
}
