import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchBrowser } from './browser';
import { startServer, type TestServer } from './server';

/** The real server and a Chromium, shared by the tests of one file. */
export interface AppUnderTest {
  server: TestServer;
  browser: Awaited<ReturnType<typeof launchBrowser>>;
}

/** A throwaway copy of the data folder the global set-up migrated and seeded. */
function seededCopy(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'avatar-studio-e2e-'));
  cpSync(inject('seededDataDir'), dataDir, { recursive: true });
  return dataDir;
}

/**
 * Starts the reference server (with `env` on top of the test settings) on a throwaway copy of
 * the seeded data folder and Debian's Chromium before the file's tests, and stops both after
 * them. Read `server` and `browser` inside tests and hooks.
 */
export function appUnderTest(
  options: { webgl?: boolean; env?: Record<string, string> } = {},
): AppUnderTest {
  const app = {} as AppUnderTest;
  beforeAll(async () => {
    app.server = await startServer(options.env, { dataDir: seededCopy() });
    app.browser = await launchBrowser(options);
  });
  afterAll(async () => {
    await app.browser?.close();
    await app.server?.stop();
  });
  return app;
}

/** The admin the server seeds (its published development password). */
export const ADMIN = { email: 'admin@avatar.studio', password: 'avatar-studio-admin' };

/** A fresh profile at `viewport` on the sign-in page, with the tests' default timeout. */
async function signInPage(app: AppUnderTest, viewport?: { width: number; height: number }) {
  const context = await app.browser.newContext(viewport);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${app.server.url}/signin`);
  return page;
}

/** A fresh profile signed in as `account` (the admin by default), on the dashboard. */
export async function signedInPage(
  app: AppUnderTest,
  account: { email: string; password: string } = ADMIN,
  viewport?: { width: number; height: number },
) {
  const page = await signInPage(app, viewport);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return page;
}

/** A fresh profile with a guest session ("Continue as guest"), on the dashboard. */
export async function guestPage(app: AppUnderTest, viewport?: { width: number; height: number }) {
  const page = await signInPage(app, viewport);
  await page.getByRole('button', { name: 'Continue as guest' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return page;
}
