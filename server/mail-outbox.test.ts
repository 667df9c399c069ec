import { describe, expect, it, vi } from 'vitest';
import { startSmtpSink } from '../tests/helpers/smtp-sink';
import {
  createDevMailbox,
  createSmtpTransport,
  type MailMessage,
  type MailTransport,
} from './mail';
import { queueMail, sendDueMail, startMailWorker } from './mail-outbox';
import { dataOf, uniqueClient, uniqueEmail, useTestApp } from './test-app';
import { captureLog } from './test-log';

const t = useTestApp();
const now = () => new Date(t.clock.current);

/** A mail server that never answers, and counts what it was handed. */
function hangingTransport() {
  const handed: MailMessage[] = [];
  const transport: MailTransport = {
    send: (message) => {
      handed.push(message);
      return new Promise<void>(() => undefined);
    },
  };
  return { transport, handed };
}

async function queued(email: string) {
  const { rows } = await t.db.query<{ attempts: number }>(
    `SELECT attempts FROM mail_outbox WHERE message->>'to' = $1`,
    [email],
  );
  return rows;
}

describe('mail outbox', () => {
  it('answers a code request without touching the mail server, alike for every address', async () => {
    const { transport, handed } = hangingTransport();
    const app = t.createApp({
      db: t.db,
      mail: transport,
      config: t.config,
      now,
      storage: t.storage,
      events: t.events,
    });
    const known = uniqueEmail();
    await t.signUp(known);
    await t.deliverMail();
    const answers = [];
    for (const email of [known, uniqueEmail()]) {
      // Were the mail sent inside the request, this one would never answer.
      const response = await app.request('/v1/auth/request-login-code', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueClient() },
        body: JSON.stringify({ email }),
      });
      answers.push({ status: response.status, body: await response.text() });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual({ status: 200, body: JSON.stringify({ data: { sent: true } }) });
    expect(handed).toEqual([]);
    expect(await queued(known)).toHaveLength(1);
  });

  it('delivers a queued mail after a restart', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    dataOf(await t.post('/v1/auth/request-login-code', { email }));
    // The process that queued it stops before sending; the next one starts its worker.
    const mailbox = createDevMailbox({ now });
    const worker = startMailWorker({ db: t.db, mail: mailbox, now }, { pollMs: 10 });
    try {
      await vi.waitFor(() => {
        expect(mailbox.list(email).map((m) => m.kind)).toEqual(['login', 'verify']);
      });
    } finally {
      await worker.stop();
    }
    expect(await queued(email)).toEqual([]);
  });

  it('sends at once what this process queues', async () => {
    const mailbox = createDevMailbox({ now });
    // A poll far longer than the test: only the wake-up can deliver in time.
    const worker = startMailWorker({ db: t.db, mail: mailbox, now }, { pollMs: 3_600_000 });
    const email = uniqueEmail();
    try {
      await queueMail({ db: t.db, now }, { to: email, kind: 'notice', subject: 's', text: 't' });
      await vi.waitFor(() => expect(mailbox.list(email)).toHaveLength(1));
    } finally {
      await worker.stop();
    }
  });

  it('retries a failed send with back-off, and takes over a crashed claim after its lease', async () => {
    const email = uniqueEmail();
    await queueMail({ db: t.db, now }, { to: email, kind: 'notice', subject: 's', text: 't' });
    const log = captureLog();
    const failing: MailTransport = { send: () => Promise.reject(new Error('refused')) };
    try {
      expect(await sendDueMail({ db: t.db, mail: failing, now })).toBe(1);
    } finally {
      log.restore();
    }
    expect(await queued(email)).toEqual([{ attempts: 1 }]);
    const mailbox = createDevMailbox({ now });
    expect(await sendDueMail({ db: t.db, mail: mailbox, now })).toBe(0);
    t.advance(5000);
    expect(await sendDueMail({ db: t.db, mail: mailbox, now })).toBe(1);
    expect(mailbox.list(email)).toHaveLength(1);

    // A worker that claimed a mail and died: the mail waits out the lease, then goes.
    const other = uniqueEmail();
    await queueMail({ db: t.db, now }, { to: other, kind: 'notice', subject: 's', text: 't' });
    await t.db.query(
      `UPDATE mail_outbox SET attempts = 1, available_at = $2 WHERE message->>'to' = $1`,
      [other, new Date(t.clock.current.getTime() + 60_000)],
    );
    expect(await sendDueMail({ db: t.db, mail: mailbox, now })).toBe(0);
    t.advance(60_000);
    expect(await sendDueMail({ db: t.db, mail: mailbox, now })).toBe(1);
    expect(mailbox.list(other)).toHaveLength(1);
  });

  it('keeps codes and invitations queued while the mail server refuses for hours, and sends them once it is back', async () => {
    await t.deliverMail();
    // The relay's port, with nothing listening on it for now.
    const first = await startSmtpSink();
    const port = first.port;
    await first.close();
    const smtp = createSmtpTransport(`smtp://127.0.0.1:${port}`, 'studio@example.com');
    const deps = { db: t.db, mail: smtp, now };

    const email = uniqueEmail();
    const invitee = uniqueEmail('invitee');
    await t.signUp(email);
    dataOf(await t.post('/v1/auth/request-login-code', { email }));
    const { token } = await t.loginAs('admin');
    const invited = await t.post(
      '/private/v1/invitations',
      { email: invitee, role: 'developer' },
      token,
    );
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);

    const log = captureLog();
    // Three mails (the sign-up's verification, the code, the invitation), each refused.
    expect(await sendDueMail(deps)).toBe(3);
    expect(await queued(email)).toEqual([{ attempts: 1 }, { attempts: 1 }]);
    expect(await queued(invitee)).toEqual([{ attempts: 1 }]);
    expect(log.text()).toMatch(/ECONNREFUSED/);
    // Down for two hours, tried again as they fall due: nothing is given up meanwhile.
    for (let minutes = 0; minutes < 120; minutes += 5) {
      t.advance(5 * 60_000);
      await sendDueMail(deps);
    }
    log.restore();
    expect(await queued(email)).toHaveLength(2);
    expect(await queued(invitee)).toHaveLength(1);

    const relay = await startSmtpSink(port);
    try {
      // Due again after the back-off, not before.
      expect(await sendDueMail(deps)).toBe(0);
      t.advance(5 * 60_000);
      expect(await sendDueMail(deps)).toBe(3);
      const code = await relay.waitFor(email, /\b\d{6}\b/);
      expect(code).toMatch(/code/i);
      expect(await relay.waitFor(invitee, /invitation|invite/i)).toMatch(/https?:\/\//);
      expect(
        relay.mails
          .map((mail) => mail.to)
          .flat()
          .sort(),
      ).toEqual([email, email, invitee].map((to) => to.toLowerCase()).sort());
    } finally {
      await relay.close();
    }
    expect(await queued(email)).toEqual([]);
    expect(await queued(invitee)).toEqual([]);
  }, 30_000);

  it('logs a refused mail by its id, never the address the relay refused nor the account it would not sign in', async () => {
    await t.deliverMail();
    for (const refuse of ['recipients', 'login'] as const) {
      const relay = await startSmtpSink(0, refuse);
      const account = 'relay.account@corp-mail.example';
      const url = relay.url.replace('//', `//${encodeURIComponent(account)}:relay-secret@`);
      const smtp = createSmtpTransport(url, 'studio@example.com');
      const victim = uniqueEmail('victim.person').replace('example.com', 'private-domain.example');
      await queueMail({ db: t.db, now }, { to: victim, kind: 'notice', subject: 's', text: 't' });
      const log = captureLog();
      try {
        expect(await sendDueMail({ db: t.db, mail: smtp, now })).toBe(1);
      } finally {
        log.restore();
        await relay.close();
      }
      // The relay's reason stays, and which mail it was: the queued row, by its id.
      const { rows } = await t.db.query<{ id: string }>(
        `SELECT id::text FROM mail_outbox WHERE message->>'to' = $1`,
        [victim],
      );
      const id = rows[0]!.id;
      expect(log.entries()).toMatchObject([
        {
          level: 'warn',
          mailId: id,
          kind: 'notice',
          msg: `Mail ${id} failed (attempt 1), will retry`,
        },
      ]);
      expect(log.text()).toMatch(refuse === 'recipients' ? /550 5\.1\.1/ : /535 5\.7\.8/);
      expect(log.text()).not.toMatch(/victim|private-domain|relay\.account|corp-mail/);
      // Still queued: it goes once the relay takes it.
      t.advance(5 * 60_000);
      expect(await t.deliverMail()).toBe(1);
    }
  });

  it('gives a mail up once it is 7 days old (an invitation link is dead by then), not before', async () => {
    const email = uniqueEmail();
    await queueMail({ db: t.db, now }, { to: email, kind: 'notice', subject: 's', text: 't' });
    const failing: MailTransport = { send: () => Promise.reject(new Error('refused')) };
    const log = captureLog();
    t.advance(7 * 24 * 3600 * 1000 - 60_000);
    await sendDueMail({ db: t.db, mail: failing, now });
    expect(await queued(email)).toEqual([{ attempts: 1 }]);
    t.advance(5 * 60_000);
    await sendDueMail({ db: t.db, mail: failing, now });
    expect(await queued(email)).toEqual([]);
    expect(log.text()).toMatch(/dropped after 2 attempts/);
  });
});
