/**
 * The development mailbox as a browser opens it (GET /dev/mailbox with Accept: text/html): the
 * mails as a page, their text escaped, their web addresses links, under a policy with no script.
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../contract/openapi';
import { expectError, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp();
const page = (to: string) =>
  t.request('GET', `/dev/mailbox?to=${encodeURIComponent(to)}`, {
    headers: { accept: 'text/html,application/xhtml+xml' },
  });

describe('the development mailbox page', () => {
  it('shows each mail readably: subject, code, text, and its web addresses as links', async () => {
    const email = uniqueEmail();
    await t.post('/v1/auth/signup/passwordless', { email });
    await t.mailbox.send({
      to: email,
      subject: 'Hello <b>there</b>',
      text: 'Open https://example.com/accept?token=a&b=1. Or <script>alert(1)</script>',
      kind: 'notice',
    });
    await t.deliverMail();
    const response = await page(email);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = response.body as string;
    expect(html).toContain(`<h1>Mailbox of ${email}</h1>`);
    expect(html).toContain('<h2>Hello &lt;b&gt;there&lt;/b&gt;</h2>');
    expect(html).toContain(
      '<a href="https://example.com/accept?token=a&amp;b=1">https://example.com/accept?token=a&amp;b=1</a>.',
    );
    expect(html).not.toContain('<script>');
    expect(html).toMatch(/<span class="code">\d{6}<\/span>/);
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; frame-ancestors 'none'/);
    expect(policy).not.toContain('script-src');
  });

  it('still answers JSON to a client that does not ask for a page', async () => {
    const response = await t.get(`/dev/mailbox?to=${encodeURIComponent(uniqueEmail())}`);
    expect(response.body).toEqual({ data: [] });
  });

  it('answers every mail without `to`, and a 400 for a `to` that is not an address, as documented', async () => {
    expect((await t.get('/dev/mailbox')).status).toBe(200);
    expectError(await t.get('/dev/mailbox?to=nobody'), 400, 'VALIDATION_ERROR');
    const { parameters } = openApiDocument('1').paths['/dev/mailbox']!.get!;
    expect(parameters).toMatchObject([
      { name: 'to', in: 'query', required: false, schema: { format: 'email' } },
    ]);
  });
});
