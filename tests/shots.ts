// npm run screenshots [DIR]: every account screen at desktop and phone width, for review.
import { launchBrowser } from './helpers/browser';
import { startServer, waitForMail } from './helpers/server';
const out = process.argv[2] ?? '/tmp/shots';
const server = await startServer();
// WebGL on, so the asset page's viewer draws the (demo) model.
const b = await launchBrowser({ webgl: true });
try {
  for (const [tag, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    const ctx = await b.newContext(viewport);
    const page = await ctx.newPage();
    const shot = (name: string) =>
      page.screenshot({ path: `${out}/${tag}-${name}.png`, fullPage: true });
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
    await ctx.close();
  }
  // Asset and cage mesh editing (issue 4), as the seeded admin.
  for (const [tag, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    const ctx = await b.newContext(viewport);
    const page = await ctx.newPage();
    const shot = (name: string) =>
      page.screenshot({ path: `${out}/${tag}-${name}.png`, fullPage: true });
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
    await page.locator('[data-state="spawned"], [data-state="error"]').first().waitFor();
    await page.waitForTimeout(1500);
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
    await ctx.close();
  }
} finally {
  await b.close();
  await server.stop();
}
