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
 * the frame holds no navigation or account: a visitor who is not signed in sees the frame and
 * the heading until the app sends them to the sign-in form. A record's page (an asset) gets its
 * breadcrumbs and heading in a template that names the record in the API: src/boot.ts reads
 * it with the session the page's storage keeps and writes the record's name into them
 * (scripts/first-paint-headings.ts, `FIRST_PAINT_RECORDS`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpoint, ENDPOINTS } from '../contract/paths';

/** A record screen whose heading boot.ts draws (scripts/first-paint-headings.ts). */
interface FirstPaintRecord {
  section: string;
  sectionTitle: string;
  /** The heading, `{{name}}` standing for the record's name. */
  heading: string;
  endpoint: 'asset';
  page: string;
  header: string;
}

/** Written by the build (vite.config.ts, `firstPaintTexts`). */
interface FirstPaintTexts {
  appName: string;
  /** The breadcrumbs' name (their navigation landmark's). */
  breadcrumb?: string;
  /** The heading each screen draws first, by its address. */
  headings: Record<string, string>;
  records?: FirstPaintRecord[];
}

/** A record's id as the screens' addresses carry it (a segment, never `new`). */
const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

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
  /**
   * The breadcrumbs and heading of a record's screen as the app draws them (src/ui/dom/
   * breadcrumbs.tsx), empty: boot.ts fills in the record's name, as text, once it has read it.
   */
  const recordTemplate = (record: FirstPaintRecord, id: string) =>
    `<template class="first-paint-record" data-read="${escape(endpoint(ENDPOINTS[record.endpoint], { id }))}">` +
    `<section class="${record.page}">` +
    `<nav aria-label="${escape(texts.breadcrumb ?? 'Breadcrumb')}" class="breadcrumbs"><ol>` +
    `<li><a href="${record.section}">${escape(record.sectionTitle)}</a></li>` +
    '<li aria-current="page" data-name></li></ol></nav>' +
    `<div class="${record.header}"><h1 data-heading="${escape(record.heading)}"></h1></div>` +
    '</section></template>';
  return (path) => {
    const segments = path.split('/').filter(Boolean);
    const heading = texts.headings['/' + segments.join('/')];
    const record = texts.records?.find(({ section }) => section === '/' + segments[0]);
    const id = segments.length === 2 && segments[1] !== 'new' ? segments[1]! : undefined;
    const main = heading
      ? `<h1>${escape(heading)}</h1>`
      : record && id !== undefined && RECORD_ID.test(id)
        ? recordTemplate(record, id)
        : '';
    return (
      `<div class="app-shell first-paint"><div class="app-sidebar">${brand}</div>` +
      `<div class="app-frame">${header}<main class="app-main">${main}</main></div></div>`
    );
  };
}
