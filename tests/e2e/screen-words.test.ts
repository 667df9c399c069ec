/**
 * What the screen says, in a real browser against the real server: a plain user reads an asset
 * under a read-only notice (no greyed form), an admin sees who holds an asset and takes it back,
 * a list opened with a filter it cannot read says it was ignored. Each new state is axe clean
 * in both colour schemes at 1280 and 390 px (pictured when SHOTS_DIR is set).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, login, verifiedAccount } from '../helpers/accounts';
import { appUnderTest, blankPage, signedInAt } from '../helpers/app';
import { seriousViolations, seriousViolationsInBothSchemes } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const WIDTHS = [1280, 390] as const;
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const viewport = (width: number) => ({ width, height: width === 390 ? 844 : 800 });

/** An asset of the seed, read through the API. */
async function anAsset(token: string) {
  const rows = await api(app.server.url, '/v1/assets?limit=1&order=name', token);
  const [asset] = rows as unknown as { id: string; name: string }[];
  if (!asset) throw new Error('the seed has no asset');
  return asset;
}

/** Axe in both schemes, with a picture of each, at the page's width. */
async function expectClean(page: Page, name: string) {
  const found = await seriousViolationsInBothSchemes(page, (scheme) =>
    shot(page, `${name}-${scheme}`, { fullPage: true }),
  );
  expect(found).toEqual([]);
}

describe('what the screen says', () => {
  it('shows a plain user an asset as text under a notice saying why it is read only', async () => {
    const user = await verifiedAccount(app.server.url);
    const asset = await anAsset(await login(app.server.url, user));
    for (const width of WIDTHS) {
      const page = await signedInAt(
        app,
        `${app.server.url}/assets/${asset.id}`,
        user,
        viewport(width),
      );
      await page
        .getByText(/^Read only: your role may look at assets but not change them/)
        .waitFor();
      const details = page.getByRole('region', { name: 'Details' });
      await details.getByText(asset.name, { exact: true }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Name' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
      await expectClean(page, `asset-read-only-${width}`);
      await page.context().close();
    }
  });

  it('shows an admin who holds an asset, each a link, and takes it back with Undo', async () => {
    const token = await login(app.server.url);
    const asset = await anAsset(token);
    const holder = await verifiedAccount(app.server.url);
    await api(app.server.url, `/private/v1/user-assets/${holder.id}`, token, 'POST', {
      assetIds: [asset.id],
    });
    for (const width of WIDTHS) {
      const page = await signedInAt(
        app,
        `${app.server.url}/assets/${asset.id}`,
        undefined,
        viewport(width),
      );
      const users = page.getByRole('region', { name: 'Users' });
      const link = users.getByRole('link', { name: holder.email });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe(`/users/${holder.id}`);
      await link.scrollIntoViewIfNeeded();
      await expectClean(page, `asset-holders-${width}`);
      if (width === 390) {
        await users.getByRole('button', { name: `Take it from ${holder.email}` }).click();
        await page.getByText(`${asset.name} taken from ${holder.email}`).waitFor();
        await expect.poll(() => link.count()).toBe(0);
      }
      await page.context().close();
    }
  });

  it('says a filter in the address that cannot be read was ignored', async () => {
    for (const width of WIDTHS) {
      const page = await signedInAt(
        app,
        `${app.server.url}/assets?filter=${encodeURIComponent('{"type":')}`,
        undefined,
        viewport(width),
      );
      const notice = page.getByRole('status').filter({ hasText: 'could not be read' });
      await notice.waitFor();
      expect(await notice.innerText()).toContain(
        'The filter in the address could not be read, so it was ignored',
      );
      await expectClean(page, `list-filter-ignored-${width}`);
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await expect.poll(() => notice.count()).toBe(0);
      await page.context().close();
    }
  });

  it('links who made each change in the activity log to their page, and names sessions by browser', async () => {
    // A change of the admin's, for the log to show.
    await api(app.server.url, '/v1/tags', await login(app.server.url), 'POST', {
      name: `Words ${Date.now()}`,
    });
    const page = await signedInAt(app, `${app.server.url}/activity`);
    const who = page.getByRole('link', { name: 'admin@avatar.studio' }).first();
    await who.waitFor();
    expect(await who.getAttribute('href')).toMatch(/^\/users\/[^/]+$/);
    // Another session of the admin's, signed in from Chrome on Linux.
    await fetch(`${app.server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': CHROME_LINUX },
      body: JSON.stringify({ email: 'admin@avatar.studio', password: 'avatar-studio-admin' }),
    });
    await page.goto(`${app.server.url}/account`);
    const sessions = page.getByRole('region', { name: 'Sessions' });
    await sessions
      .getByText(/^Chrome on Linux$/)
      .first()
      .waitFor();
    await sessions.scrollIntoViewIfNeeded();
    await expectClean(page, 'account-sessions-1280');
    await page.context().close();
  });

  it('shows the development mailbox as a page to read mail on, at 390 px too', async () => {
    const account = await verifiedAccount(app.server.url);
    const page = await blankPage(app, viewport(390));
    await page.goto(`${app.server.url}/dev/mailbox?to=${encodeURIComponent(account.email)}`);
    await page.getByRole('heading', { name: `Mailbox of ${account.email}` }).waitFor();
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    // Nothing wider than the phone's screen: long lines and addresses wrap.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `dev-mailbox-390-${scheme}`, { fullPage: true });
    }
    await page.context().close();
  });
});
