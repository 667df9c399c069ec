/**
 * The state machine inspector: the in-app panel of a development build
 * (`npm run build:dev` writes dist-dev/, which scripts/test.sh builds before this runs), and
 * none of it in the production build (dist/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededCopy } from '../helpers/app';
import { workerBrowser } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

/** Strings only the inspector code contains: the panel, the sanitizer, the Stately library. */
const MARKERS = [
  'State machine inspector',
  'data-inspector-panel',
  '[redacted]',
  '@statelyai.connected',
];

const scripts = (dir: string) =>
  readdirSync(join(dir, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(dir, 'assets', name), 'utf8'));

describe('inspector code', () => {
  it('is in the development build and nowhere in the production build', () => {
    const dev = scripts('dist-dev').join('\n');
    expect(MARKERS.filter((marker) => !dev.includes(marker))).toEqual([]);
    const production = scripts('dist');
    expect(production.length).toBeGreaterThan(0);
    expect(MARKERS.filter((marker) => production.some((code) => code.includes(marker)))).toEqual(
      [],
    );
  });
});

describe('inspector panel (development build)', () => {
  let server: TestServer;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startServer({ STATIC_DIR: 'dist-dev' }, { dataDir: seededCopy() });
  });

  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await server?.stop();
  });

  /** A page in a new profile of the worker's Chromium (none of the pool's: another build). */
  async function newPage(path: string) {
    const context = await (await workerBrowser()).newContext();
    contexts.push(context);
    const page = await context.newPage();
    // A development build (unminified React) on a busy machine: more time than accounts.test.ts.
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}${path}`);
    return page;
  }

  const panelOf = (page: Page) =>
    page.getByRole('complementary', { name: 'State machine inspector' });

  /** The event rows of the panel as "target type → state after", newest first. */
  const eventRows = (page: Page) =>
    panelOf(page)
      .getByRole('row')
      .evaluateAll((rows) =>
        rows.slice(1).map((row) => {
          const cells = Array.from(row.querySelectorAll('td'), (cell) => cell.textContent ?? '');
          return `${cells[2]} ${cells[3]} → ${cells[4]}`;
        }),
      );

  it('opens with Ctrl+Alt+I, follows the session through a sign-in and never shows a token', async () => {
    const page = await newPage('/signin');
    await page.getByLabel('E-mail').waitFor();
    // The panel's code (and its shortcut) loads lazily after the page; the root element says
    // when the shortcut listens.
    await page.locator('html[data-inspector="ready"]').waitFor({ state: 'attached' });
    await page.keyboard.press('Control+Alt+KeyI');
    const panel = panelOf(page);
    await panel.waitFor();
    const session = panel.locator('li[data-actor="session"]');
    await expect.poll(() => session.textContent()).toContain('idle');

    await page.getByLabel('E-mail').fill('admin@avatar.studio');
    await page.getByLabel('Password').fill('avatar-studio-admin');
    // The panel covers the bottom of the window; the form is sent from the keyboard.
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // The session actor went from signing in back to idle, now holding the user.
    await expect
      .poll(async () => (await eventRows(page)).filter((row) => row.startsWith('session')))
      .toEqual(
        expect.arrayContaining([
          'session (x:0) LOGIN_VERIFIED → authenticating.verifiedLogin',
          expect.stringMatching(
            /^session \(x:0\) xstate\.done\.actor\.[\w.]+verifiedLogin → idle$/,
          ) as unknown,
        ]),
      );
    await session.locator('summary').click();
    await expect.poll(() => session.textContent()).toContain('"email": "admin@avatar.studio"');
    expect(await session.textContent()).toContain('"token": "[redacted]"');

    // No token, refresh token or password anywhere in the panel, folded parts included.
    const stored = await page.evaluate(
      () =>
        JSON.parse(localStorage.getItem('persist:user') ?? 'null') as {
          data: { token: string; refreshToken: string };
        },
    );
    expect(stored.data.token).toBeTruthy();
    expect(stored.data.refreshToken).toBeTruthy();
    const text = (await panel.textContent()) ?? '';
    for (const secret of [stored.data.token, stored.data.refreshToken, 'avatar-studio-admin']) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+/);

    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.close();
  });

  it('opens on load with ?inspect=panel and filters the events by actor', async () => {
    const page = await newPage('/signin?inspect=panel');
    const panel = panelOf(page);
    await panel.waitFor();
    await expect.poll(() => panel.locator('li[data-actor="session"]').count()).toBe(1);
    const sessionOption = panel.getByRole('option', { name: /^session/ });
    await panel
      .getByRole('combobox', { name: 'Actor' })
      .selectOption((await sessionOption.getAttribute('value')) ?? '');
    const rows = await eventRows(page);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.startsWith('session'))).toBe(true);
    await page.close();
  });
});
