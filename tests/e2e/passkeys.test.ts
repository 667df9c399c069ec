/**
 * Passkeys in the browser (docs/using.md "Passkeys"): Chromium's virtual authenticator (the
 * DevTools protocol's WebAuthn domain) stands in for a laptop's fingerprint reader or a phone. A
 * passkey added on the account page signs in with no password typed, and answers the second
 * step of another account's password sign-in. WebAuthn refuses an IP address as the relying
 * party, so the pages are opened at http://localhost:<port>, the address the server takes as its
 * PUBLIC_URL when none is set (it listens on 127.0.0.1, which localhost reaches). Screenshots
 * go to $SHOTS_DIR when it is set.
 */
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { verifiedAccount } from '../helpers/accounts';
import { appUnderTest } from '../helpers/app';
import { seriousViolations } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();

/** The app at the relying party's origin (PUBLIC_URL), not at the IP address it listens on. */
const origin = () => app.server.url.replace('//127.0.0.1:', '//localhost:');

/**
 * A platform authenticator that verifies its user (as a fingerprint would) without a prompt;
 * `synced`: its passkeys are backed up, as a password manager's are.
 */
async function addAuthenticator(cdp: CDPSession, { synced = false } = {}): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
      ...(synced && { defaultBackupEligibility: true, defaultBackupState: true }),
    },
  });
  return authenticatorId;
}

/** A fresh profile whose browser has a virtual authenticator; closed by the test. */
async function browserWithAuthenticator() {
  const context = await app.browser.newContext({ width: 1280, height: 900 });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const authenticatorId = await addAuthenticator(cdp);
  return { context, page, cdp, authenticatorId };
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto(`${origin()}/signin`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const passkeysOf = (page: Page) => page.getByRole('region', { name: 'Passkeys' });

/**
 * Adds a passkey on the account page (the password, the browser's prompt, a name: `name`, or
 * the one the page suggests); answers the suggested name.
 */
async function addPasskey(page: Page, password: string, name?: string) {
  const section = passkeysOf(page);
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  const proof = section.getByRole('form', { name: 'Add a passkey' });
  await proof.getByLabel('Current password').fill(password);
  await proof.getByRole('button', { name: 'Continue' }).click();
  const naming = section.getByRole('form', { name: 'Name the passkey' });
  const field = naming.getByLabel('Name');
  await field.waitFor();
  const suggested = await field.inputValue();
  await shot(section, 'passkeys-naming');
  if (name) await field.fill(name);
  await naming.getByRole('button', { name: 'Save passkey' }).click();
  await section
    .getByRole('list', { name: 'Your passkeys' })
    .getByRole('listitem')
    .filter({ hasText: name ?? suggested })
    .waitFor();
  return suggested;
}

async function expectAccessible(page: Page, what: string) {
  const violations = await seriousViolations(page);
  expect(violations.map((v) => `${what}: ${v.id}`)).toEqual([]);
}

describe('passkeys', () => {
  it('one added on the account page signs in with no password typed', async () => {
    const { email, password } = await verifiedAccount(app.server.url);
    const { context, page, cdp, authenticatorId } = await browserWithAuthenticator();
    await signInWithPassword(page, email, password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${origin()}/account`);

    // Named after the browser and system it was made in, unless the owner says otherwise.
    await expect(addPasskey(page, password)).resolves.toBe('Chrome on Linux');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => c.isResidentCredential)).toEqual([true]);
    const section = passkeysOf(page);
    await expect(section.getByRole('listitem').first().innerText()).resolves.toMatch(
      /Chrome on Linux[\s\S]*Added[\s\S]*Never used/,
    );

    // The same authenticator is not added twice: the browser says it holds one already.
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const proof = section.getByRole('form', { name: 'Add a passkey' });
    await proof.getByLabel('Current password').fill(password);
    await proof.getByRole('button', { name: 'Continue' }).click();
    await proof
      .getByRole('alert')
      .getByText(/already holds a passkey for your account/)
      .waitFor();
    await section.getByRole('button', { name: 'Cancel' }).click();

    // Another device (a phone) gets a passkey of its own.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await addAuthenticator(cdp, { synced: true });
    await addPasskey(page, password, 'Phone');
    await expect(section.getByRole('listitem').count()).resolves.toBe(2);
    await section.getByRole('listitem').filter({ hasText: 'Phone' }).getByText('Synced').waitFor();
    await expectAccessible(page, 'account page');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    // Signed out, the account page asks to sign in and comes back after, as a password does.
    await page.goto(`${origin()}/account`);
    await page.waitForURL(/\/signin\?.*redirect/);
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    await button.waitFor();
    await expectAccessible(page, 'sign-in page');
    await shot(page, 'passkeys-signin-1280', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'passkeys-signin-390', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await button.click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    await page.getByText(`Signed in as ${email}`).waitFor();
    // The phone's passkey signed in: it says when.
    await expect(
      passkeysOf(page).getByRole('listitem').filter({ hasText: 'Phone' }).innerText(),
    ).resolves.toMatch(/Last used/);
    await shot(passkeysOf(page), 'passkeys-section-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(passkeysOf(page), 'passkeys-section-390');
    await context.close();
  });

  it('answers the second step of a password sign-in of an account that has one', async () => {
    const { email, password } = await verifiedAccount(app.server.url, 'developer');
    const { context, page } = await browserWithAuthenticator();
    await signInWithPassword(page, email, password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${origin()}/account`);
    await addPasskey(page, password, 'Laptop');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);

    await signInWithPassword(page, email, password);
    const usePasskey = page.getByRole('button', { name: 'Use your passkey' });
    await usePasskey.waitFor();
    // No authenticator app: the passkey is the only answer, so no code is asked for.
    await expect(page.getByLabel('Authentication code').count()).resolves.toBe(0);
    await expectAccessible(page, 'second step');
    await shot(page, 'passkeys-second-step-1280', { fullPage: true });
    await usePasskey.click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText(`Signed in as ${email}`).waitFor();
    await context.close();
  });
});
