/**
 * Passkeys (WebAuthn, with SimpleWebAuthn; docs/api.md "Passkeys"): an account holds several,
 * each named. A passkey answers the second step of a sign-in (as an authenticator's code does)
 * and signs in on its own, without a password: with user verification (a PIN or a fingerprint on
 * the device) it is two factors already. The relying party is the app's public address
 * (PUBLIC_URL): its host is the RP ID, its origin the only origin accepted.
 *
 * A ceremony (adding one, signing in) is a signed token holding its WebAuthn challenge, valid 5
 * minutes: nothing is stored until it is answered, so asking costs no write, and its id is then
 * recorded so that a response is never accepted twice. The second step's challenge is derived
 * from the sign-in's own single-use challenge (server/auth/second-factor.ts).
 */
import { createHmac } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { SignJWT, jwtVerify } from 'jose';
import type { Passkey, PasskeyCeremony } from '../../contract/passkey-schemas';
import { isDbError, PG_UNIQUE_VIOLATION, type Db } from '../db';
import type { Deps } from '../deps';
import { fail } from '../http/errors';
import { newId } from '../ids';
import { isoString } from '../timestamps';
import type { UserRow } from '../users';
import type { AccessClaims } from './access-token';
import { lockLiveCaller } from './live-caller';
import { announceSessionChange } from './session-check';

const RP_NAME = 'Avatar Studio';
const CEREMONY_TTL_MS = 5 * 60_000;
/** Passkeys one account holds at most. */
export const MAX_PASSKEYS = 20;

type CeremonyKind = 'passkey-register' | 'passkey-sign-in';

interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: string;
  transports: string[];
  name: string;
  backed_up: boolean;
  created_at: Date;
  last_used_at: Date | null;
}

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: isoString(row.created_at),
  lastUsedAt: row.last_used_at && isoString(row.last_used_at),
  backedUp: row.backed_up,
});

/** The relying party: this app's public address. */
function relyingParty(deps: Pick<Deps, 'config'>) {
  const url = new URL(deps.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

const ceremonyKey = (deps: Pick<Deps, 'config'>) =>
  new TextEncoder().encode(deps.config.keys.passkeyCeremony);

async function openCeremony(
  deps: Pick<Deps, 'config' | 'now'>,
  kind: CeremonyKind,
  challenge: string,
  userId?: string,
): Promise<string> {
  const now = deps.now().getTime();
  const token = new SignJWT({ typ: kind, chal: challenge })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(newId())
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + CEREMONY_TTL_MS) / 1000));
  if (userId !== undefined) token.setSubject(userId);
  return token.sign(ceremonyKey(deps));
}

function ceremonyExpired(): never {
  fail(401, 'CEREMONY_EXPIRED', 'This passkey request has expired or was used: start again');
}

interface OpenCeremony {
  id: string;
  challenge: string;
  expiresAt: Date;
}

/** Reads ceremony `token` of `kind` (of `userId`, for one opened for an account), or a 401. */
async function readCeremony(
  deps: Pick<Deps, 'config' | 'now'>,
  token: string,
  kind: CeremonyKind,
  userId?: string,
): Promise<OpenCeremony> {
  try {
    const { payload } = await jwtVerify(token, ceremonyKey(deps), {
      algorithms: ['HS256'],
      currentDate: deps.now(),
      requiredClaims: ['jti', 'exp'],
    });
    const { typ, chal, jti, exp, sub } = payload;
    if (typ !== kind || typeof chal !== 'string' || !jti || exp === undefined) ceremonyExpired();
    if (sub !== userId) ceremonyExpired();
    return { id: jti, challenge: chal, expiresAt: new Date(exp * 1000) };
  } catch {
    ceremonyExpired();
  }
}

/** Records the ceremony as answered (in the transaction of what it does); a second time is a 401. */
async function spendCeremony(tx: Db, ceremony: OpenCeremony): Promise<void> {
  const { rows } = await tx.query(
    `INSERT INTO passkey_ceremonies_used (id, expires_at) VALUES ($1, $2)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [ceremony.id, ceremony.expiresAt],
  );
  if (rows.length === 0) ceremonyExpired();
}

function refused(error: unknown): never {
  const why = error instanceof Error ? error.message : 'it could not be read';
  fail(400, 'PASSKEY_REFUSED', `The passkey's answer was refused: ${why}`);
}

async function passkeyRows(db: Db, userId: string): Promise<PasskeyRow[]> {
  const { rows } = await db.query<PasskeyRow>(
    'SELECT * FROM passkeys WHERE user_id = $1 ORDER BY created_at, id',
    [userId],
  );
  return rows;
}

/** The passkeys of `userId`, oldest first. */
export async function listPasskeys(db: Db, userId: string): Promise<Passkey[]> {
  return (await passkeyRows(db, userId)).map(toPasskey);
}

/** Whether `userId` holds a passkey (a second factor). */
export async function hasPasskey(db: Db, userId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM passkeys WHERE user_id = $1 LIMIT 1', [userId]);
  return rows.length > 0;
}

const tooMany = () =>
  fail(409, 'TOO_MANY_PASSKEYS', `An account holds at most ${MAX_PASSKEYS} passkeys`);

/** Opens the ceremony that adds a passkey to `user` (once the owner is proven). */
export async function registrationCeremony(deps: Deps, user: UserRow): Promise<PasskeyCeremony> {
  const held = await passkeyRows(deps.db, user.id);
  if (held.length >= MAX_PASSKEYS) tooMany();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(deps).rpID,
    userName: user.email ?? user.id,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    // The same authenticator is not added twice.
    excludeCredentials: held.map((row) => ({ id: row.credential_id, transports: row.transports })),
    // Discoverable, so that it signs in without an address typed first.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const ceremony = await openCeremony(deps, 'passkey-register', options.challenge, user.id);
  return { ceremony, options: { ...options } };
}

/** Adds the passkey that answered `body.ceremony` to `user`, named `body.name`. */
export async function addPasskey(
  deps: Deps,
  user: UserRow,
  caller: AccessClaims,
  body: { ceremony: string; name: string; response: Record<string, unknown> },
): Promise<Passkey> {
  const ceremony = await readCeremony(deps, body.ceremony, 'passkey-register', user.id);
  const { rpID, origin } = relyingParty(deps);
  const verification = await verifyRegistrationResponse({
    response: body.response as unknown as RegistrationResponseJSON,
    expectedChallenge: ceremony.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(refused);
  if (!verification.verified) refused(undefined);
  const { credential, credentialBackedUp } = verification.registrationInfo;
  try {
    return await deps.db.transaction(async (tx) => {
      // The account's row orders two adds racing past the limit; a session ended meanwhile adds
      // nothing.
      await lockLiveCaller(tx, caller, deps.now());
      await spendCeremony(tx, ceremony);
      const { rows: count } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1',
        [user.id],
      );
      if ((count[0]?.n ?? 0) >= MAX_PASSKEYS) tooMany();
      // Whether the account has a second factor is part of its sessions' state (migration 050).
      announceSessionChange(tx, `u:${user.id}`);
      const { rows } = await tx.query<PasskeyRow>(
        `INSERT INTO passkeys (id, user_id, credential_id, public_key, counter, transports, name,
           backed_up, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [
          newId(),
          user.id,
          credential.id,
          Buffer.from(credential.publicKey).toString('base64url'),
          credential.counter,
          credential.transports ?? [],
          body.name,
          credentialBackedUp,
          deps.now(),
        ],
      );
      return toPasskey(rows[0]!);
    });
  } catch (error) {
    if (isDbError(error, PG_UNIQUE_VIOLATION)) {
      fail(409, 'PASSKEY_EXISTS', 'This passkey is registered already');
    }
    throw error;
  }
}

const noSuchPasskey = (id: string) => fail(404, 'NOT_FOUND', `No passkey of yours with id ${id}`);

/** Renames passkey `id` of `userId`. */
export async function renamePasskey(
  db: Db,
  userId: string,
  id: string,
  name: string,
): Promise<Passkey> {
  const { rows } = await db.query<PasskeyRow>(
    'UPDATE passkeys SET name = $3 WHERE id = $1 AND user_id = $2 RETURNING *',
    [id, userId, name],
  );
  const row = rows[0] ?? noSuchPasskey(id);
  return toPasskey(row);
}

/** Removes passkey `id` of the caller (once the owner is proven); answers those left. */
export async function deletePasskey(
  deps: Deps,
  caller: AccessClaims,
  id: string,
): Promise<Passkey[]> {
  return deps.db.transaction(async (tx) => {
    await lockLiveCaller(tx, caller, deps.now());
    const { rows } = await tx.query(
      'DELETE FROM passkeys WHERE id = $1 AND user_id = $2 RETURNING id',
      [id, caller.userId],
    );
    if (rows.length === 0) noSuchPasskey(id);
    announceSessionChange(tx, `u:${caller.userId}`);
    return listPasskeys(tx, caller.userId);
  });
}

/** Opens a sign-in with any passkey of this server (the browser offers the user's own). */
export async function signInCeremony(deps: Deps): Promise<PasskeyCeremony> {
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps).rpID,
    userVerification: 'required',
  });
  const ceremony = await openCeremony(deps, 'passkey-sign-in', options.challenge);
  return { ceremony, options: { ...options } };
}

const unknownPasskey = (): never =>
  fail(401, 'PASSKEY_UNKNOWN', 'This passkey is not one of an account here');

/**
 * Checks `response` against the passkey it names (of `userId` when given) and `challenge`, and
 * records its use in `tx`; answers the passkey's account. `requireUserVerification` is true
 * where the passkey is the whole sign-in.
 */
async function checkAssertion(
  deps: Deps,
  tx: Db,
  response: Record<string, unknown>,
  expected: { challenge: string; userId?: string; requireUserVerification: boolean },
): Promise<string> {
  const credentialId = typeof response.id === 'string' ? response.id : unknownPasskey();
  const { rows } = await tx.query<PasskeyRow>(
    'SELECT * FROM passkeys WHERE credential_id = $1 FOR UPDATE',
    [credentialId],
  );
  const row = rows[0];
  if (!row || (expected.userId !== undefined && row.user_id !== expected.userId)) {
    return unknownPasskey();
  }
  const { rpID, origin } = relyingParty(deps);
  const verification = await verifyAuthenticationResponse({
    response: response as unknown as AuthenticationResponseJSON,
    expectedChallenge: expected.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: row.credential_id,
      publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
      counter: Number(row.counter),
      transports: row.transports,
    },
    requireUserVerification: expected.requireUserVerification,
  }).catch(refused);
  if (!verification.verified) refused(undefined);
  // SimpleWebAuthn refuses a counter that did not move forward (a copied key), where the
  // authenticator keeps one.
  const { newCounter } = verification.authenticationInfo;
  await tx.query('UPDATE passkeys SET counter = $2, last_used_at = $3 WHERE id = $1', [
    row.id,
    newCounter,
    deps.now(),
  ]);
  return row.user_id;
}

/** Answers the account whose passkey answered sign-in ceremony `ceremony` with `response`. */
export async function signInWithPasskey(
  deps: Deps,
  body: { ceremony: string; response: Record<string, unknown> },
): Promise<string> {
  const ceremony = await readCeremony(deps, body.ceremony, 'passkey-sign-in');
  return deps.db.transaction(async (tx) => {
    await spendCeremony(tx, ceremony);
    return checkAssertion(deps, tx, body.response, {
      challenge: ceremony.challenge,
      requireUserVerification: true,
    });
  });
}

/** The WebAuthn challenge of the second step whose single-use id is `challengeId`. */
function secondStepChallenge(deps: Pick<Deps, 'config'>, challengeId: string): string {
  return createHmac('sha256', deps.config.keys.passkeyCeremony)
    .update(`second-step\0${challengeId}`)
    .digest('base64url');
}

/** The options of the second step `challengeId` of `userId`, or undefined without a passkey. */
export async function secondStepOptions(
  deps: Deps,
  userId: string,
  challengeId: string,
): Promise<Record<string, unknown> | undefined> {
  const held = await passkeyRows(deps.db, userId);
  if (held.length === 0) return undefined;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(deps).rpID,
    challenge: new TextEncoder().encode(secondStepChallenge(deps, challengeId)),
    allowCredentials: held.map((row) => ({ id: row.credential_id, transports: row.transports })),
    userVerification: 'preferred',
  });
  return { ...options };
}

/**
 * Checks a passkey's answer to the second step `challengeId` of `userId` (the step's own
 * single use is the sign-in's challenge's); false for a passkey that is not the account's.
 */
export async function answerSecondStepWithPasskey(
  deps: Deps,
  userId: string,
  challengeId: string,
  response: Record<string, unknown>,
): Promise<void> {
  const challenge = Buffer.from(secondStepChallenge(deps, challengeId)).toString('base64url');
  await deps.db.transaction((tx) =>
    checkAssertion(deps, tx, response, { challenge, userId, requireUserVerification: false }),
  );
}
