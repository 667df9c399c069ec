/**
 * Issuing a one-time code and mailing it (through the outbox, server/mail-outbox.ts).
 * Addresses without an account get a recorded but unsent code, so answers, their timing and
 * rate limits do not reveal whether an account exists.
 */
import type { Context } from 'hono';
import type { z } from 'zod/mini';
import type { emailOnlyBodySchema } from '../../contract/schemas';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import type { MailMessage } from '../mail';
import { queueMail } from '../mail-outbox';
import { findUserByEmail, type UserRow } from '../users';
import { CODE_TTL_MS, issueCode, type CodePurpose } from './one-time-codes';
import { LIMITS, takeAttempt, type Attempt } from './rate-limit';

const MINUTES = CODE_TTL_MS / 60_000;

function message(
  to: string,
  purpose: CodePurpose,
  code: string,
  verificationId: string,
): MailMessage {
  switch (purpose) {
    case 'login':
      return {
        to,
        kind: 'login',
        code,
        subject: 'Your Avatar Studio sign-in code',
        text: `Your sign-in code is ${code}. It expires in ${MINUTES} minutes.\nIf you did not ask for it, ignore this mail.`,
      };
    case 'verify':
      return {
        to,
        kind: 'verify',
        code,
        verificationId,
        subject: 'Verify your Avatar Studio e-mail address',
        text: `Your verification code is ${code} (verification id ${verificationId}). It expires in ${MINUTES} minutes.`,
      };
    case 'email':
      return {
        to,
        kind: 'email',
        code,
        verificationId,
        subject: 'Confirm your new Avatar Studio e-mail address',
        text: `Your code to confirm this address is ${code}. It expires in ${MINUTES} minutes.\nIf you did not ask to use this address, ignore this mail.`,
      };
    case 'proof':
      return {
        to,
        kind: 'proof',
        code,
        subject: 'Your Avatar Studio code to confirm it is you',
        text: `Your code to confirm a change to your account is ${code}. It expires in ${MINUTES} minutes.\nIf you did not ask for it, someone may be using your session: sign out of your other sessions on the account page.`,
      };
    case 'reset':
      return {
        to,
        kind: 'reset',
        code,
        subject: 'Reset your Avatar Studio password',
        text: `Your password reset code is ${code}. It expires in ${MINUTES} minutes.\nIf you did not ask for it, your password stays unchanged.`,
      };
  }
}

export interface CodeRequest {
  email: string;
  /** The account of `email`: the code is mailed only when it exists. */
  user: UserRow | undefined;
  purpose: CodePurpose;
  /** The client address asking: the code's own budget of guesses is this client's. */
  client: string;
}

/** Issues a `purpose` code for `email` and mails it when `user` exists; returns the code id. */
export async function sendCode(deps: Deps, request: CodeRequest): Promise<string> {
  const { email, user, purpose, client } = request;
  const { id, code, mail } = await issueCode(deps.db, {
    email,
    userId: user?.id ?? null,
    purpose,
    client,
    now: deps.now(),
    secret: deps.config.keys.codeHashing,
  });
  // Queued, not sent: the answer takes as long whether or not the address has an account.
  if (user && mail) await queueMail(deps, message(email.toLowerCase(), purpose, code, id));
  return id;
}

/**
 * Takes one of a client's mail attempts (429 past LIMITS.mailPerClient), before anything is
 * created or sent; it counts whether or not the address has an account, so answers stay alike.
 */
export function takeMailAttempt(deps: Deps, client: string): Promise<Attempt> {
  return takeAttempt(deps.db, [{ key: `mail:${client}`, limit: LIMITS.mailPerClient }], deps.now());
}

/** What a code request sends. */
type EmailOnlyBody = z.infer<typeof emailOnlyBodySchema>;

/**
 * The handler of a code request (`{ email }` in): takes the client's mail attempt, mails a
 * `purpose` code when the address has an account and answers `{ sent: true }` either way.
 */
export function codeRequestHandler(deps: Deps, purpose: 'login' | 'reset') {
  return async (c: Context, { email }: EmailOnlyBody) => {
    const client = clientAddress(c, deps.config);
    await takeMailAttempt(deps, client);
    await sendCode(deps, { email, user: await findUserByEmail(deps.db, email), purpose, client });
    return c.json({ data: { sent: true } });
  };
}

/** Tells an owner that a password set before they proved their address was removed. */
export async function sendPasswordRemovedNotice(deps: Deps, email: string): Promise<void> {
  await queueMail(deps, {
    to: email.toLowerCase(),
    kind: 'notice',
    subject: 'A password on your Avatar Studio account was removed',
    text:
      'You just proved this address with a code. Someone had set a password on the account ' +
      'before the address was verified, so that password was removed and every session was ' +
      'signed out.\nTo sign in with a password, set one with "Forgot password".',
  });
}
