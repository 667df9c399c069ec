/**
 * Outgoing mail. Development keeps every message in an in-memory mailbox (and logs it) so codes
 * can be read from GET /dev/mailbox; with SMTP_URL set, mail goes out through nodemailer.
 */
import nodemailer from 'nodemailer';
import type { DevMail } from '../contract/schemas';

export type MailKind = DevMail['kind'];

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  kind: MailKind;
  code?: string;
  /** Set on verification mails: the id to send back with the code to POST /v1/users/verify. */
  verificationId?: string;
  /** Set on invitations: the link that accepts it. */
  link?: string;
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

export interface DevMailbox extends MailTransport {
  /** Kept messages, newest first, optionally only those sent to `to` (case-insensitive). */
  list(to?: string): DevMail[];
}

/** A transport that keeps the newest `limit` messages in memory and optionally logs them. */
export function createDevMailbox(
  options: { log?: (line: string) => void; limit?: number; now?: () => Date } = {},
): DevMailbox {
  const { log, limit = 500, now = () => new Date() } = options;
  const messages: DevMail[] = [];
  return {
    send(message) {
      const stored: DevMail = {
        to: message.to,
        subject: message.subject,
        text: message.text,
        code: message.code ?? null,
        verificationId: message.verificationId ?? null,
        link: message.link ?? null,
        kind: message.kind,
        sentAt: now().toISOString(),
      };
      messages.unshift(stored);
      messages.length = Math.min(messages.length, limit);
      log?.(
        `[mail] to=${stored.to} kind=${stored.kind} subject="${stored.subject}"\n${stored.text}`,
      );
      return Promise.resolve();
    },
    list(to) {
      const wanted = to?.toLowerCase();
      return wanted === undefined
        ? [...messages]
        : messages.filter((m) => m.to.toLowerCase() === wanted);
    },
  };
}

/** A transport that sends through the SMTP server at `url` (smtp:// or smtps://). */
export function createSmtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transporter.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}
