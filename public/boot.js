/**
 * The page's only script tag. The build keeps the app's scripts in inert
 * `<template class="app-modules">` elements (vite.config.ts `paintFirst`; the server adds the
 * screen's, server/spa-preload.ts); once the page has painted, this turns them into module
 * preloads and imports the entry. A signed-in screen's page carries its frame and heading
 * (server/first-paint.ts): it waits for their first contentful paint (at most a second). Any
 * other page waits for its first frame; a hidden tab, which paints nothing, loads at once.
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
