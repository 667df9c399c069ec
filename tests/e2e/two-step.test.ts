/**
 * Two-step sign-in in the browser: a user sets up an authenticator on the account page (the
 * code is computed here from the key the page shows, as an app would), keeps the recovery
 * codes, and the next sign-in asks for the app's code before the back office opens. At 1280
 * and 390 px, axe clean (screenshots go to $SHOTS_DIR when it is set).
 */
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { verifiedAccount } from '../helpers/accounts';
import { appUnderTest, blankPage } from '../helpers/app';
import { seriousViolations } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();

/** The code an authenticator app with `key` shows `steps` time steps from now. */
function codeOf(key: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(key.replace(/\s/g, '')) });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** A 6-digit code that is none of the ones the server accepts now. */
function wrongCodeOf(key: string): string {
  const right = new Set([-1, 0, 1, 2].map((steps) => codeOf(key, steps)));
  let n = 0;
  while (right.has(String(n).padStart(6, '0'))) n += 1;
  return String(n).padStart(6, '0');
}

async function expectAccessible(page: Page, name: string) {
  const violations = await seriousViolations(page);
  expect(violations.map((v) => `${name}: ${v.id}`)).toEqual([]);
  await shot(page, name, { fullPage: true });
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${app.server.url}/signin`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('two-step sign-in', () => {
  it.each([1280, 390])(
    'is set up on the account page and asked at sign-in (%i px)',
    async (width) => {
      const { email, password } = await verifiedAccount(app.server.url, 'developer');
      const page = await blankPage(app, { width, height: 900 });
      await signIn(page, email, password);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

      await page.goto(`${app.server.url}/account`);
      const setUp = page.getByRole('form', { name: 'Set up two-step sign-in' });
      await setUp.getByLabel('Current password').fill(password);
      await setUp.getByRole('button', { name: 'Set up' }).click();
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      const key = await page.locator('.two-step-secret').innerText();
      await expectAccessible(page, `two-step-enrol-${width}`);
      const confirm = page.getByRole('form', { name: 'Confirm two-step sign-in' });
      await confirm.getByLabel('Code from the app').fill(codeOf(key));
      await confirm.getByRole('button', { name: 'Turn on' }).click();
      const codes = page.getByRole('list', { name: 'Recovery codes' });
      await codes.waitFor();
      await expect(codes.getByRole('listitem').count()).resolves.toBe(10);
      await expectAccessible(page, `two-step-codes-${width}`);
      await page.getByRole('button', { name: 'I saved them' }).click();
      await page.getByText('10 recovery codes left.').waitFor();

      // Signed out and in again: the password alone no longer opens the back office.
      await page.evaluate(() => localStorage.clear());
      await signIn(page, email, password);
      const step = page.getByRole('form', { name: 'Two-step sign-in' });
      const field = step.getByLabel('Authentication code');
      await field.waitFor();
      await expect(field.getAttribute('autocomplete')).resolves.toBe('one-time-code');
      await expectAccessible(page, `two-step-signin-${width}`);
      await field.fill(wrongCodeOf(key));
      await step.getByRole('button', { name: 'Verify' }).click();
      await page
        .getByRole('alert')
        .getByText(/This code is wrong/)
        .waitFor();
      await shot(page, `two-step-signin-error-${width}`, { fullPage: true });
      // The confirmation spent this step's code: the app's next one (inside the clock skew).
      await field.fill(codeOf(key, 1));
      await step.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    },
  );
});
