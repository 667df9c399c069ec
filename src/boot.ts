/**
 * The page's only script, which the build minifies into the page itself (vite.config.ts
 * `paintFirst`; the server's Content-Security-Policy allows it by its hash). The build keeps
 * the app's scripts in inert `<template class="app-modules">` elements (the server adds the
 * screen's, server/spa-preload.ts); once the page has painted, this turns them into module
 * preloads and imports the entry. A signed-in screen's page carries its frame and heading
 * (server/first-paint.ts): it waits for their first contentful paint (at most a second). Any
 * other page waits for its first frame; a hidden tab, which paints nothing, loads at once.
 *
 * A record's page (an asset) carries its breadcrumbs and heading in a template naming the
 * record in the API: this reads the record at once, with the session the app keeps in the
 * page's storage, and draws them with its name, so the page's largest text does not wait for
 * the scripts. The app's same read then takes this answer (src/api/first-read.ts) instead of
 * asking again. No session, or an answer other than the record, draws nothing.
 */
let started = false;

function load() {
  if (started) return;
  started = true;
  let entry: string | null | undefined;
  for (const template of document.querySelectorAll<HTMLTemplateElement>('template.app-modules')) {
    for (const link of template.content.querySelectorAll('link')) {
      if (link.hasAttribute('data-entry')) entry = link.getAttribute('href');
      document.head.append(document.importNode(link));
    }
  }
  if (entry) void import(/* @vite-ignore */ entry);
}

function readRecord(template: HTMLTemplateElement) {
  let token: unknown;
  try {
    // The session as the app keeps it (src/machines/session-persistence.ts).
    const stored = JSON.parse(localStorage.getItem('persist:user') ?? 'null') as {
      data?: { token?: unknown };
    } | null;
    token = stored?.data?.token;
  } catch {
    return;
  }
  const read = template.dataset.read;
  if (typeof token !== 'string' || token === '' || !read) return;
  // The API's address as the app has it (src/api/http.ts): VITE_API_BASE, else this origin.
  const base =
    document.querySelector<HTMLScriptElement>('script[data-api-base]')?.dataset.apiBase || '/';
  const url = new URL(read, new URL(base.endsWith('/') ? base : `${base}/`, location.href)).href;
  const authorization = `Bearer ${token}`;
  const answer = fetch(url, { headers: { accept: 'application/json', authorization } });
  window.avatarStudioFirstRead = { url, authorization, answer };
  answer
    .then((response) =>
      response.ok ? (response.clone().json() as Promise<{ data?: { name?: unknown } }>) : undefined,
    )
    .then((body) => {
      const name = body?.data?.name;
      const main = document.querySelector('.first-paint main');
      if (typeof name !== 'string' || !main) return;
      const view = template.content.cloneNode(true) as DocumentFragment;
      for (const slot of view.querySelectorAll('[data-name]')) slot.textContent = name;
      for (const heading of view.querySelectorAll<HTMLElement>('[data-heading]')) {
        heading.textContent = (heading.dataset.heading ?? '').split('{{name}}').join(name);
      }
      main.append(view);
    })
    .catch(() => {});
}

const record = document.querySelector<HTMLTemplateElement>(
  '.first-paint template.first-paint-record',
);
if (record) readRecord(record);

const drawn = document.querySelector('.first-paint');
if (document.visibilityState === 'hidden') {
  load();
} else if (drawn && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  new PerformanceObserver((entries) => {
    if (entries.getEntriesByName('first-contentful-paint').length) load();
  }).observe({ type: 'paint', buffered: true });
  setTimeout(load, 1000);
} else {
  // A frame's callbacks run before it is painted; the task after them runs once it has been.
  requestAnimationFrame(() => setTimeout(load));
}

export {};
