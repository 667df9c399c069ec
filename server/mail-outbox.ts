/**
 * The mail outbox (docs/api.md "Sessions"): a request that mails writes the message to
 * `mail_outbox` and answers; a worker in every server process sends it. So a request takes as
 * long whether or not it mails anything (nobody learns from the time which addresses have
 * accounts), a slow or failing mail server never holds a request, and a queued mail survives a
 * restart.
 *
 * A worker claims the oldest due row with `FOR UPDATE SKIP LOCKED`, which sets its
 * `available_at` one lease ahead (so several processes on one PostgreSQL never take the same
 * row, and a row whose claimant crashed is taken again once the lease is over), sends it, and
 * deletes it. A failed send is retried with back-off (at most RETRY_CAP_MS apart), so a mail
 * server that is down for hours gets its mail once it is back; a mail still unsent after MAX_AGE_MS
 * is given up. Delivery is at least once: a claimant that stalls past its lease may see its mail
 * sent twice. A failure is logged by the row's id and the mail's kind, never by its address.
 */
import type { Db } from './db';
import type { Deps } from './deps';
import type { MailMessage, MailTransport } from './mail';
import { log } from './log';
import { traced } from './tracing';

const mailLog = log.child({ job: 'mail' });

const LEASE_MS = 60 * 1000;
/** An invitation lasts 7 days; a mail older than its link is of no use. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 5 * 1000;
const RETRY_CAP_MS = 5 * 60 * 1000;
const POLL_MS = 1000;
/** A send that takes longer counts as failed, so a hung mail server cannot stall the worker. */
const SEND_TIMEOUT_MS = 30 * 1000;

function withTimeout(sending: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms / 1000} s`)), ms);
  });
  return Promise.race([sending, timeout]).finally(() => clearTimeout(timer));
}

/** Rows were queued in this process: its workers look at once instead of at the next poll. */
const queued = new EventTarget();

/** Queues `message` for sending after the request has answered. */
export async function queueMail(deps: Pick<Deps, 'db' | 'now'>, message: MailMessage) {
  const now = deps.now();
  await deps.db.query(
    'INSERT INTO mail_outbox (message, available_at, created_at) VALUES ($1, $2, $2)',
    [JSON.stringify(message), now],
  );
  queued.dispatchEvent(new Event('queued'));
}

interface OutboxRow {
  id: string;
  message: MailMessage;
  attempts: number;
  created_at: Date | string;
}

export type OutboxDeps = { db: Db; mail: MailTransport; now: () => Date };

/** Claims and sends the oldest due mail; false when none was due. */
export async function sendNextMail(deps: OutboxDeps): Promise<boolean> {
  const now = deps.now();
  const { rows } = await deps.db.query<OutboxRow>(
    `UPDATE mail_outbox SET available_at = $2, attempts = attempts + 1
     WHERE id = (SELECT id FROM mail_outbox WHERE available_at <= $1
                 ORDER BY available_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id::text, message, attempts, created_at`,
    [now, new Date(now.getTime() + LEASE_MS)],
  );
  const row = rows[0];
  if (!row) return false;
  const message =
    typeof row.message === 'string' ? (JSON.parse(row.message) as MailMessage) : row.message;
  try {
    await traced('mail send', { 'mail.kind': message.kind, 'mail.attempt': row.attempts }, () =>
      withTimeout(deps.mail.send(message), SEND_TIMEOUT_MS),
    );
    await deps.db.query('DELETE FROM mail_outbox WHERE id = $1', [row.id]);
  } catch (error) {
    if (now.getTime() - new Date(row.created_at).getTime() >= MAX_AGE_MS) {
      mailLog.error(
        { err: error, mailId: row.id, kind: message.kind, attempts: row.attempts },
        `Mail ${row.id} dropped after ${row.attempts} attempts`,
      );
      await deps.db.query('DELETE FROM mail_outbox WHERE id = $1', [row.id]);
    } else {
      mailLog.warn(
        { err: error, mailId: row.id, kind: message.kind, attempts: row.attempts },
        `Mail ${row.id} failed (attempt ${row.attempts}), will retry`,
      );
      const delay = Math.min(RETRY_CAP_MS, FIRST_RETRY_MS * 2 ** Math.min(row.attempts - 1, 20));
      const retryAt = new Date(deps.now().getTime() + delay);
      await deps.db.query('UPDATE mail_outbox SET available_at = $2 WHERE id = $1', [
        row.id,
        retryAt,
      ]);
    }
  }
  return true;
}

/**
 * Sends every mail due now.
 * @internal The tests' turn of the worker, which sends a mail at a time (it can stop between).
 */
export async function sendDueMail(deps: OutboxDeps): Promise<number> {
  let sent = 0;
  while (await sendNextMail(deps)) sent += 1;
  return sent;
}

export interface MailWorker {
  /** Stops looking for mail and waits for the mail being sent. */
  stop(): Promise<void>;
}

/**
 * Sends queued mail until stopped: at once when this process queues one, otherwise every
 * `pollMs` (mail queued by other processes, retries, leases run out after a crash).
 */
export function startMailWorker(
  deps: OutboxDeps,
  options: { pollMs?: number; onError?: (error: unknown) => void } = {},
): MailWorker {
  const {
    pollMs = POLL_MS,
    onError = (error) => mailLog.error({ err: error }, 'Mail worker failed'),
  } = options;
  let stopped = false;
  let again = false;
  let wake: (() => void) | undefined;
  const onQueued = () => {
    again = true;
    wake?.();
  };
  queued.addEventListener('queued', onQueued);
  const loop = (async () => {
    while (!stopped) {
      again = false;
      // One mail at a time, so a stop waits for the mail being sent, not for the whole outbox.
      try {
        while (!stopped && (await sendNextMail(deps)));
      } catch (error) {
        onError(error);
      }
      if (stopped) break;
      // Queued while this turn ran: another turn at once.
      if (again) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => resolve(), pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();
  return {
    async stop() {
      stopped = true;
      queued.removeEventListener('queued', onQueued);
      wake?.();
      await loop;
    },
  };
}
