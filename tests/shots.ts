// npm run screenshots [DIR]: every account screen at desktop and phone width, for review.
import { launchBrowser } from './helpers/browser';
import { startServer, waitForMail } from './helpers/server';
const out = process.argv[2] ?? '/tmp/shots';
const server = await startServer();
const b = await launchBrowser();
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
} finally {
  await b.close();
  await server.stop();
}
