/**
 * The page's only script tag. The build keeps the app's scripts in inert
 * `<template class="app-modules">` elements (vite.config.ts `paintFirst`; the server adds the
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
  let entry;
  for (const template of document.querySelectorAll('template.app-modules')) {
    for (const link of template.content.querySelectorAll('link')) {
      if (link.hasAttribute('data-entry')) entry = link.getAttribute('href');
      document.head.append(document.importNode(link));
    }
  }
  if (entry) import(entry);
}

function readRecord(template) {
  let token;
  try {
    // The session as the app keeps it (src/machines/session-persistence.ts).
    token = JSON.parse(localStorage.getItem('persist:user') ?? 'null')?.data?.token;
  } catch {
    return;
  }
  if (typeof token !== 'string' || token === '') return;
  // The API's address as the app has it (src/api/http.ts): VITE_API_BASE, else this origin.
  const base = document.querySelector('script[data-api-base]')?.dataset.apiBase || '/';
  const url = new URL(
    template.dataset.read,
    new URL(base.endsWith('/') ? base : `${base}/`, location.href),
  ).href;
  const authorization = `Bearer ${token}`;
  const answer = fetch(url, { headers: { accept: 'application/json', authorization } });
  window.avatarStudioFirstRead = { url, authorization, answer };
  answer
    .then((response) => (response.ok ? response.clone().json() : undefined))
    .then((body) => {
      const record = body?.data;
      const main = document.querySelector('.first-paint main');
      if (typeof record?.name !== 'string' || !main) return;
      const view = template.content.cloneNode(true);
      for (const slot of view.querySelectorAll('[data-name]')) slot.textContent = record.name;
      for (const heading of view.querySelectorAll('[data-heading]')) {
        heading.textContent = heading.dataset.heading.split('{{name}}').join(record.name);
      }
      main.append(view);
    })
    .catch(() => {});
}

const record = document.querySelector('.first-paint template.first-paint-record');
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
