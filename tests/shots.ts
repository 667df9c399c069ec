// npm run screenshots [DIR]: the account, list, asset and viewer screens at desktop and phone
// width, in the light and the dark scheme, for review.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from './helpers/browser';
import { startServer, waitForMail } from './helpers/server';
const out = process.argv[2] ?? '/tmp/shots';
const server = await startServer();
// WebGL on, so the viewers draw their models.
const b = await launchBrowser({ webgl: true });

const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

const SCHEMES = ['light', 'dark'] as const;

/**
 * Runs `take` once per viewport and colour scheme in a fresh profile; `shot(name)` writes
 * `<width>-<scheme>-<name>.png`.
 */
async function atEachWidth(
  take: (page: Page, shot: (name: string) => Promise<unknown>, tag: string) => Promise<void>,
) {
  for (const [tag, viewport] of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      const ctx = await b.browser.newContext({ viewport, colorScheme: scheme });
      const page = await ctx.newPage();
      await take(
        page,
        (name) => page.screenshot({ path: `${out}/${tag}-${scheme}-${name}.png`, fullPage: true }),
        `${tag}-${scheme}`,
      );
      await ctx.close();
    }
  }
}

const viewerReady = (page: Page) =>
  page.locator('[data-state="spawned"], [data-state="error"]').first().waitFor();

try {
  await atEachWidth(async (page, shot, tag) => {
    await page.goto(`${server.url}/signin?reason=login_required`);
    await shot('signin');
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('E-mail').fill('bad');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('x');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await shot('signup-errors');
    await page.goto(`${server.url}/passwordless?email=ada@example.test`);
    await shot('passwordless-code');
    await page.goto(`${server.url}/forgot-password`);
    await shot('forgot');
    await page.goto(`${server.url}/verify-email?verificationId=x&email=ada@example.test`);
    await shot('verify');
    const email = `shot-${tag}@example.test`;
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('long enough pw');
    await page.getByLabel('Confirm password').fill('long enough pw');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/verify-email/);
    const mail = await waitForMail(server.url, email, 'verify');
    await page.getByLabel('Code', { exact: true }).fill(mail.code ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Total').waitFor();
    await shot('dashboard');
  });
  // Lists, asset and cage mesh editing, as the seeded admin.
  await atEachWidth(async (page, shot) => {
    await page.goto(`${server.url}/signin`);
    await page.getByLabel('E-mail').fill('admin@avatar.studio');
    await page.getByLabel('Password').fill('avatar-studio-admin');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Total').waitFor();
    // The editing screens open through the list's links (see tests/e2e/assets.test.ts).
    await page.goto(`${server.url}/assets`);
    await page.getByRole('link', { name: 'New asset' }).click();
    await page.getByRole('button', { name: 'Create asset' }).click();
    await page.getByText('Please fix the highlighted fields.').waitFor();
    await shot('asset-new-errors');
    await page.goto(`${server.url}/assets`);
    await page.locator('[role="rowheader"] a').first().click();
    await page.getByText('Changelog').waitFor();
    await viewerReady(page);
    await shot('asset');
    // The first asset may already be locked (by the desktop pass).
    const lock = page.getByRole('button', { name: 'Lock', exact: true });
    const locked = page.getByText('Locked: this asset');
    await lock.or(locked).first().waitFor();
    if (await lock.isVisible()) await lock.click();
    await locked.waitFor();
    await shot('asset-locked');
    await page.goto(`${server.url}/cage-meshes/new`);
    await page.getByRole('heading', { name: 'New cage mesh' }).waitFor();
    await shot('cage-mesh-new');
    // A reorderable list: drag handles in the first column.
    await page.goto(`${server.url}/applications`);
    await page.getByRole('grid').getByRole('link').first().click();
    await page.getByText(/^\d+ items$/).waitFor();
    await shot('application-assets');
  });
  // The embeddable viewer on its own (public, no session).
  await atEachWidth(async (page, shot) => {
    // A fixture avatar, answered by the test instead of the server.
    await page.route(
      (url) => url.pathname.startsWith('/fixtures/'),
      (route) =>
        route.fulfill({
          body: readFileSync(
            resolve('..', 'shared', new URL(route.request().url()).pathname.slice(1)),
          ),
          contentType: 'model/gltf-binary',
        }),
    );
    await page.goto(`${server.url}/embed?modelSrc=/fixtures/avatars/male-emissive.glb&fit=true`);
    await viewerReady(page);
    await shot('embed');
  });
} finally {
  await b.close();
  await server.stop();
}
