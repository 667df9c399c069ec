import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUnderTest, blankPage, seededCopy } from '../helpers/app';
import { startServer, waitForMail, type TestServer } from '../helpers/server';

const app = appUnderTest();

let counter = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.test`;

/** A page in a profile that holds nothing, unless a context is given (tabs of one profile). */
async function newPage(context?: BrowserContext) {
  if (!context) return blankPage(app);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

async function signUp(page: Page, email: string, password: string) {
  await page.goto(`${app.server.url}/signup`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/\/verify-email\?/);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${app.server.url}/signin`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** A registered, verified account, signed in on `page`. */
async function verifiedAccount(page: Page) {
  const email = uniqueEmail('user');
  const password = 'correct horse battery';
  await signUp(page, email, password);
  const mail = await waitForMail(app.server.url, email, 'verify');
  await page.getByLabel('Code', { exact: true }).fill(mail.code ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return { email, password };
}

function persisted(page: Page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('persist:user') ?? 'null') as unknown);
}

describe('accounts in the browser', () => {
  it('signs up, verifies through the mailbox, signs out and signs in again', async () => {
    const page = await newPage();
    const { email, password } = await verifiedAccount(page);
    await expect(page.getByText(`Signed in as ${email}`).isVisible()).resolves.toBe(true);
    // The dashboard counts come from the seeded assets table.
    await page.getByText('Total').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    expect(await persisted(page)).toMatchObject({ data: { token: null } });

    await signIn(page, email, password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.close();
  });

  it('shows field errors only after touch, blocks a bad submit and shows server errors', async () => {
    const page = await newPage();
    await page.goto(`${app.server.url}/signin`);
    const emailField = page.getByLabel('E-mail');
    await expect(emailField.getAttribute('aria-invalid')).resolves.toBeNull();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Please fix the highlighted fields.').waitFor();
    await expect(emailField.getAttribute('aria-invalid')).resolves.toBe('true');

    await emailField.fill('nobody@example.test');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /wrong/i }).waitFor();
    expect(page.url()).toContain('/signin');
    await page.close();
  });

  it('/verify-email without a link asks for the address and sends a code there', async () => {
    const email = uniqueEmail('nolink');
    const response = await fetch(`${app.server.url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    expect(response.status).toBe(200);
    const page = await newPage();
    await page.goto(`${app.server.url}/verify-email`);
    await page.getByText('This verification link is incomplete').waitFor();
    const sentAfter = Date.now();
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send a new code' }).click();
    await page.getByText('A new code is on its way.').waitFor();
    const mail = await waitForMail(app.server.url, email, 'verify', sentAfter - 1000);
    await page.getByLabel('Code', { exact: true }).fill(mail.code ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/signin\?/);
    await page.context().close();
  });

  it("shows the server's reason for a common password at the password field", async () => {
    const page = await newPage();
    await page.goto(`${app.server.url}/signup`);
    await page.getByLabel('E-mail').fill(uniqueEmail('weak'));
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('leavemealone');
    await page.getByLabel('Confirm password').fill('leavemealone');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const reason = page.getByText(
      'Password is one of the most common passwords and easy to guess.',
    );
    await reason.waitFor();
    // The reason belongs to the field (announced with it), not to the form.
    await expect(password.getAttribute('aria-invalid')).resolves.toBe('true');
    const describedBy = (await password.getAttribute('aria-describedby')) ?? '';
    await expect(reason.getAttribute('id')).resolves.toSatisfy((id: string | null) =>
      describedBy.split(' ').includes(id ?? '-'),
    );
    expect(page.url()).toContain('/signup');
    await page.context().close();
  });

  it("a verified session's token carries the role's abilities at once", async () => {
    const page = await newPage();
    await verifiedAccount(page);
    const { data } = (await persisted(page)) as { data: { token: string } };
    const payload = JSON.parse(
      Buffer.from(data.token.split('.')[1] ?? '', 'base64url').toString(),
    ) as { ability: unknown };
    // Unverified, the token had a guest's rules; a user may also read tags.
    expect(JSON.stringify(payload.ability)).toContain('Tag');
    await page.context().close();
  });

  it('refuses an unverified account at sign-in and offers a new code', async () => {
    const page = await newPage();
    const email = uniqueEmail('unverified');
    await signUp(page, email, 'unverified password');
    await page.evaluate(() => localStorage.clear());
    await signIn(page, email, 'unverified password');
    await page.getByText('Your e-mail address is not verified yet.').waitFor();
    expect(await persisted(page)).toMatchObject({ data: { token: null } });
    const before = Date.now();
    await page.getByRole('button', { name: 'Send a new verification code' }).click();
    await page.waitForURL(/verificationId=/);
    const mail = await waitForMail(app.server.url, email, 'verify', before);
    await page.getByLabel('Code', { exact: true }).fill(mail.code ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Your e-mail address is verified').waitFor();
    await page.close();
  });

  it('signs in without a password using an e-mailed code', async () => {
    const page = await newPage();
    const email = uniqueEmail('passwordless');
    await page.goto(`${app.server.url}/passwordless`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText(`We sent a code to ${email}.`).waitFor();
    const mail = await waitForMail(app.server.url, email, 'login');
    await page.getByLabel('Code', { exact: true }).fill(mail.code ?? '');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.close();
  });

  it('resets a forgotten password with a code, and the old password stops working', async () => {
    const page = await newPage();
    const { email, password } = await verifiedAccount(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The sign-in form also has an E-mail field: wait until the reset form has replaced it.
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    const mail = await waitForMail(app.server.url, email, 'reset');
    await page.getByLabel('Code', { exact: true }).fill(mail.code ?? '');
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByLabel('Confirm password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password was changed').waitFor();

    await signIn(page, email, password);
    await page.getByRole('alert').filter({ hasText: /wrong/i }).waitFor();
    await signIn(page, email, 'a brand new password');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.close();
  });

  it('continues as a guest with an anonymous account', async () => {
    const page = await newPage();
    await page.goto(`${app.server.url}/signin`);
    await page.evaluate(() => localStorage.clear());
    await page.getByRole('button', { name: 'Continue as guest' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('Guest', { exact: true }).waitFor();
    const stored = (await persisted(page)) as { data: { _id: string; email?: string | null } };
    expect(stored.data._id).toBeTruthy();
    expect(stored.data.email ?? null).toBeNull();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    await page.close();
  });

  it('sends a visitor without a session to sign-in, and back after signing in', async () => {
    const page = await newPage();
    await page.goto(`${app.server.url}/`);
    await page.waitForURL(/\/signin\?redirect=%2F/);
    // The admin seeded on first start (default credentials, see README).
    await page.getByLabel('E-mail').fill('admin@avatar.studio');
    await page.getByLabel('Password').fill('avatar-studio-admin');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByText('Signed in as admin@avatar.studio').waitFor();
    await page.close();
  });

  it('sends an ended session to /signin?reason=login_required with a notice', async () => {
    const page = await newPage();
    await verifiedAccount(page);
    await page.getByText('Total').waitFor();
    // The access token has expired and the server no longer knows the refresh token.
    await expireStoredToken(page, { refreshToken: 'not-a-refresh-token' });
    await page.reload();
    await page.waitForURL(/\/signin\?reason=login_required/);
    await page.getByText('Your session has ended. Please sign in again.').waitFor();
    expect(await persisted(page)).toMatchObject({ data: { token: null, refreshToken: null } });
    await page.close();
  });
});

describe('an expired session', () => {
  let shortLived: TestServer;
  const REFRESH_TTL_S = 4;

  beforeAll(async () => {
    // Access tokens always inside the 30 s refresh margin, refresh families that die fast.
    shortLived = await startServer(
      { ACCESS_TOKEN_TTL: '1', REFRESH_TOKEN_TTL: String(REFRESH_TTL_S) },
      { dataDir: seededCopy() },
    );
  });
  afterAll(() => shortLived?.stop());

  it('is sent to /signin?reason=login_required once its refresh token expires', async () => {
    const page = await newPage();
    await page.goto(`${shortLived.url}/signin`);
    // The first refresh the server refuses, whether the dashboard asks for it while it loads
    // (a slow machine) or the reload below does: read on its way to the page, which leaves for
    // /signin as soon as it has it (a body read afterwards is gone with the page it came to).
    let refusal: unknown;
    await page.route('**/v1/auth/refresh', async (route) => {
      const response = await route.fetch();
      if (response.status() === 401) refusal ??= await response.json();
      await route.fulfill({ response });
    });
    const signedInAt = Date.now();
    await page.getByLabel('E-mail').fill('admin@avatar.studio');
    await page.getByLabel('Password').fill('avatar-studio-admin');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.waitForTimeout(Math.max(0, signedInAt + REFRESH_TTL_S * 1000 + 500 - Date.now()));
    if (new URL(page.url()).pathname === '/') await page.reload();
    await page.waitForURL(/\/signin\?reason=login_required/);
    expect(refusal).toMatchObject({ status: 401, message: 'Refresh token expired' });
    await page.getByText('Your session has ended. Please sign in again.').waitFor();
    await page.close();
  });
});

/** Replaces the stored access token with one that expired a minute ago (same claims). */
async function expireStoredToken(page: Page, replace: { refreshToken?: string } = {}) {
  await page.evaluate((replace) => {
    const record = JSON.parse(localStorage.getItem('persist:user') ?? '{}') as {
      data: { token: string; refreshToken: string };
    };
    if (replace.refreshToken) record.data.refreshToken = replace.refreshToken;
    const [header, payload] = record.data.token.split('.');
    const claims = JSON.parse(atob(payload!.replace(/-/g, '+').replace(/_/g, '/'))) as Record<
      string,
      unknown
    >;
    claims.exp = Math.floor(Date.now() / 1000) - 60;
    const encoded = btoa(JSON.stringify(claims))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    record.data.token = `${header}.${encoded}.expired`;
    localStorage.setItem('persist:user', JSON.stringify(record));
  }, replace);
}

function countRefreshes(pages: Page[]) {
  let count = 0;
  for (const page of pages) {
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/auth/refresh')) count++;
    });
  }
  return () => count;
}

describe('token refresh', () => {
  it('refreshes once for 20 concurrent requests made with an expired token', async () => {
    const page = await newPage();
    await verifiedAccount(page);
    // Wait for the dashboard's own requests, so no refresh is in flight.
    await page.getByText('Total').waitFor();
    await expireStoredToken(page);
    const refreshes = countRefreshes([page]);
    const statuses = await page.evaluate(async () => {
      const app = (
        window as unknown as { avatarStudio: { request: (p: string) => Promise<unknown> } }
      ).avatarStudio;
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () => app.request('v1/users/me')),
      );
      return results.map((r) => r.status);
    });
    expect(statuses).toEqual(Array(20).fill('fulfilled'));
    expect(refreshes()).toBe(1);
    await page.close();
  });

  it('shares one refresh between two tabs, and signing out in one signs out the other', async () => {
    const first = await newPage();
    await verifiedAccount(first);
    await first.getByText('Total').waitFor();
    const second = await newPage(first.context());
    await second.goto(`${app.server.url}/`);
    await second.getByText('Total').waitFor();

    await expireStoredToken(first);
    const refreshes = countRefreshes([first, second]);
    const request = (page: Page) =>
      page.evaluate(() =>
        (
          window as unknown as { avatarStudio: { request: (p: string) => Promise<unknown> } }
        ).avatarStudio.request('v1/users/me'),
      );
    await Promise.all([request(first), request(second)]);
    expect(refreshes()).toBe(1);

    await first.getByRole('button', { name: 'Sign out' }).click();
    await first.waitForURL(/\/signin/);
    await second.waitForURL(/\/signin/);
    await first.close();
    await second.close();
  });
});

/** The build the server serves (the same folder the test server is started on). */
const STATIC_DIR = process.env.E2E_STATIC_DIR ?? 'dist';

/**
 * The source modules a served script was built from, by the source map beside it; none for the
 * bundler's own runtime, which has no map (nor any module of ours or of a package).
 */
function modulesOf(url: string): string[] {
  const path = new URL(url).pathname;
  if (/\/rolldown-runtime-[\w-]+\.js$/.test(path)) return [];
  const map = readFileSync(join(STATIC_DIR, `${path}.map`), 'utf8');
  return (JSON.parse(map) as { sources: string[] }).sources;
}

describe('what the sign-in page loads', () => {
  it('stays within 154 KB of gzip JavaScript and never loads three.js or CASL', async () => {
    const { gzipSync } = await import('node:zlib');
    const page = await newPage();
    const scripts: { url: string; gzip: number; text: string }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      void response
        .body()
        .then((body) =>
          scripts.push({ url: response.url(), gzip: gzipSync(body).length, text: String(body) }),
        );
    });
    await page.goto(`${app.server.url}/signin`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
    expect(scripts.length).toBeGreaterThan(0);
    // Each lazy route adds about 250 bytes of route glue to the entry, and two-step sign-in its
    // request and session states (docs/architecture.md "Sign-in page budget").
    expect(total).toBeLessThanOrEqual(154 * 1024);
    expect(scripts.map((s) => s.url).join(' ')).not.toMatch(/three|viewer|canvas/i);
    // three.js comes in chunks named after its classes: look for its code, not its name.
    for (const { url, text } of scripts) {
      expect(text, url).not.toMatch(/isBufferGeometry|WebGLRenderer/);
    }
    // CASL (@casl/ability and its @ucast helpers) is bundled with contract/ability.ts, whose
    // chunk the build manifest names; the scripts' source maps tell which modules each holds.
    const manifest = JSON.parse(
      readFileSync(join(STATIC_DIR, '.vite', 'manifest.json'), 'utf8'),
    ) as Record<string, { file: string }>;
    const abilityChunk = manifest['contract/ability.ts']?.file;
    expect(abilityChunk).toBeDefined();
    const casl = (modules: string[]) => modules.filter((m) => /\/@(casl|ucast)\//.test(m));
    expect(casl(modulesOf(`${app.server.url}/${abilityChunk}`))).not.toEqual([]);
    for (const { url } of scripts) {
      expect(url, 'CASL chunk').not.toContain(abilityChunk);
      expect(casl(modulesOf(url)), url).toEqual([]);
    }
    await page.close();
  });
});
