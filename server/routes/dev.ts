/**
 * /dev: development helpers. Never mounted when NODE_ENV=production.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod/mini';
import { emailSchema, type DevMail } from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { readParam } from '../http/validate';
import type { DevMailbox } from '../mail';

/**
 * Routes mounted at /dev: GET /dev/mailbox?to=EMAIL lists mails sent, newest first, as JSON, or,
 * to a browser (Accept: text/html), as a page to read them on.
 */
export function devRoutes(deps: Deps, mailbox: DevMailbox) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/dev');
  on('get', '/dev/mailbox', undefined, (c) => {
    const to = readParam(z.optional(emailSchema), c.req.query('to'), 'to');
    const mails = mailbox.list(to);
    if (!(c.req.header('accept') ?? '').includes('text/html')) return c.json({ data: mails });
    c.header('Content-Security-Policy', MAILBOX_POLICY);
    return c.html(mailboxPage(mails, to));
  });
  return app;
}

const MAILBOX_STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem;
  color: #1b1b1f; background: #fff; }
@media (prefers-color-scheme: dark) { body { color: #e6e6ea; background: #16161a; } a { color: #8cb4ff; } }
article { border: 1px solid #8888; border-radius: 8px; padding: 0.75rem 1rem; margin: 1rem 0; }
h1, h2 { overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 0 0 0.25rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0.5rem 0; }
dt { opacity: 0.75; } dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; margin: 0.5rem 0 0; }
.code { font: 700 1.5rem ui-monospace, monospace; letter-spacing: 0.15em; }
`;

/**
 * The page's own policy: no script, no other source, its one style by hash (the API's policy,
 * default-src 'none', would leave long lines and links unwrapped on a phone).
 */
const MAILBOX_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(MAILBOX_STYLE).digest('base64')}'`,
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** Only web addresses become links: a mail's text is data, never markup or script. */
const LINK = /https?:\/\/[^\s<>"']+/g;

/** A mail's text, escaped, its web addresses clickable. */
function linked(text: string): string {
  let html = '';
  let from = 0;
  for (const match of text.matchAll(LINK)) {
    // A sentence's full stop or closing bracket is not part of the address.
    const url = match[0].replace(/[.,;:!?)\]]+$/, '');
    html += escape(text.slice(from, match.index));
    html += `<a href="${escape(url)}">${escape(url)}</a>`;
    from = match.index + url.length;
  }
  return html + escape(text.slice(from));
}

function mailArticle(mail: DevMail): string {
  const facts: [string, string][] = [
    ['To', escape(mail.to)],
    ['Sent', escape(mail.sentAt)],
    ['Kind', escape(mail.kind)],
  ];
  if (mail.code) facts.push(['Code', `<span class="code">${escape(mail.code)}</span>`]);
  if (mail.link) facts.push(['Link', linked(mail.link)]);
  return `<article>
<h2>${escape(mail.subject)}</h2>
<dl>${facts.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('')}</dl>
<pre>${linked(mail.text)}</pre>
</article>`;
}

/** The mails as a page: newest first, each with its facts and its text. */
function mailboxPage(mails: DevMail[], to: string | undefined): string {
  const title = to ? `Mailbox of ${to}` : 'Development mailbox';
  const count = mails.length === 1 ? '1 mail' : `${mails.length} mails`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>${MAILBOX_STYLE}</style>
</head>
<body>
<main>
<h1>${escape(title)}</h1>
<p>${count}, newest first. Mail is not sent outside production; it is kept here.</p>
${mails.map(mailArticle).join('\n')}
</main>
</body>
</html>`;
}
