/**
 * Honest status: the header's live indicator says Offline or Reconnecting within
 * 5 s of the network going away or of the live stream going silent (open, but not even a
 * heartbeat arrives), and Live again once it is back; errors have one place each (a
 * list that cannot load says so in its region, with Try again; a failed action says so in a
 * toast), at 1280 and 390 px, axe clean in the light and the dark scheme (screenshots go to $SHOTS_DIR when it is set).
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appUnderTest, signedInPage, ADMIN, type AppUnderTest } from '../helpers/app';
import { seriousViolationsInBothSchemes } from '../helpers/axe';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/proxy';
import type { TestServer } from '../helpers/server';
import { shot } from '../helpers/shots';

const app = appUnderTest();

/** A proxy in front of the server, to silence the live stream while the rest goes through. */
let proxy: RoundRobinProxy;
beforeAll(async () => {
  proxy = await startRoundRobinProxy([app.server.url]);
});
afterAll(() => proxy?.close());
// A test that failed while the stream was silenced leaves the next one a working stream.
afterEach(() => proxy.silenceEventStreams(false));
/** The app as reached through the proxy. */
const viaProxy = (): AppUnderTest => ({ ...app, server: { url: proxy.url } as TestServer });

/** The promise: the header tells the truth within this. */
const HONEST_MS = 5_000;

/** The header's live indicator (the announced one; the phone menu has a silent copy). */
const indicator = (page: Page) => page.locator('header [role="status"].live-indicator');

describe.each([1280, 390])('at %i px', (width) => {
  it('the header says Offline within 5 s of the network going away, and Live once it is back', async () => {
    const page = await signedInPage(app, ADMIN, { width, height: 800 });
    const status = indicator(page);
    await expect.poll(() => status.getAttribute('data-status')).toBe('connected');
    expect(await status.textContent()).toBe('Live');

    const offlineAt = Date.now();
    await page.context().setOffline(true);
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: HONEST_MS, interval: 100 })
      .toMatch(/^(offline|reconnecting)$/);
    expect(Date.now() - offlineAt).toBeLessThan(HONEST_MS);
    expect(await status.textContent()).toMatch(/^(Offline|Reconnecting…)$/);
    expect(await seriousViolationsInBothSchemes(page)).toEqual([]);
    await shot(page, `status-offline-${width}`);

    await page.context().setOffline(false);
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: 10_000, interval: 100 })
      .toBe('connected');
    expect(await status.textContent()).toBe('Live');
    await page.context().close();
  });

  it('the header says Reconnecting within 5 s of the live stream going silent, and Live once it speaks again', async () => {
    const page = await signedInPage(viaProxy(), ADMIN, { width, height: 800 });
    const status = indicator(page);
    await expect.poll(() => status.getAttribute('data-status')).toBe('connected');

    // The connection stays open and the network up, but not a byte arrives, not even the
    // server's heartbeat.
    const silentAt = Date.now();
    proxy.silenceEventStreams(true);
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: HONEST_MS, interval: 100 })
      .toBe('reconnecting');
    expect(Date.now() - silentAt).toBeLessThan(HONEST_MS);
    expect(await status.textContent()).toBe('Reconnecting…');

    proxy.silenceEventStreams(false);
    await expect
      .poll(() => status.getAttribute('data-status'), { timeout: 15_000, interval: 100 })
      .toBe('connected');
    expect(await status.textContent()).toBe('Live');
    await page.context().close();
  });

  it('a list that cannot load says so in its region with Try again; a failed action in a toast', async () => {
    const page = await signedInPage(app, ADMIN, { width, height: 800 });
    const refuse = (route: Route) =>
      route.fulfill({ status: 503, json: { code: 'UNAVAILABLE', message: 'Down for a moment' } });
    await page.route('**/v1/assets?*', refuse);
    await page.goto(`${app.server.url}/assets`);
    const main = page.getByRole('main');
    const failed = main.getByRole('alert').filter({ hasText: 'The list could not be loaded' });
    await failed.waitFor();
    expect(await page.locator('.toast').count()).toBe(0);
    expect(await seriousViolationsInBothSchemes(page)).toEqual([]);
    await shot(page, `status-list-failed-${width}`);
    await page.unroute('**/v1/assets?*', refuse);
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('300 items').waitFor();

    // An action that fails: a toast in the Notifications region, nothing over the table.
    await page.route('**/v1/assets/*/lock', refuse);
    await page
      .getByRole('button', { name: /^Actions: / })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Lock', exact: true }).click();
    const notifications = page.getByRole('region', { name: 'Notifications' });
    await notifications.locator('.toast.error').waitFor();
    expect(await main.getByRole('alert').count()).toBe(0);
    expect(await seriousViolationsInBothSchemes(page)).toEqual([]);
    await shot(page, `status-action-failed-${width}`);
    await page.context().close();
  });
});
