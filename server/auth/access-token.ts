/**
 * Short-lived access tokens: HS256 JWTs carrying `sub`, `sid` (the session: the refresh-token
 * family), `role`, `iat`, `exp`, the packed CASL rules of the role in `ability`, and `mfa: true`
 * when those rules rest on the account's second factor. A valid signature is not enough: the
 * session must still be live (server/auth/middleware.ts).
 */
import { SignJWT, errors, jwtVerify } from 'jose';
import { roleSchema, type Role } from '../../contract/schemas';
import { abilityFromPacked, type AppAbility } from '../../contract/ability';
import { packedRulesFor } from './abilities';

const ALGORITHM = 'HS256';
/** How far ahead of this server's clock another instance's may run; later `iat`s are refused. */
export const CLOCK_SKEW_S = 5;

export interface TokenSettings {
  secret: string;
  ttlSeconds: number;
  now: () => Date;
}

export interface AccessClaims {
  userId: string;
  /** The session the token was issued in (`sid`). */
  sessionId: string;
  role: Role;
  ability: AppAbility;
  /** When the token stops being valid (`exp`): long-lived responses such as streams end then. */
  expiresAt: Date;
  /** When it was issued (`iat`, whole seconds). */
  issuedAt: Date;
  /**
   * Its rules are the role's only because the account has a second factor (`mfa`): refused
   * once the factor goes (server/auth/live-caller.ts).
   */
  restsOnSecondFactor: boolean;
}

/** What the account's second factor does to its tokens (server/auth/session.ts `tokenFactorOf`). */
export interface TokenFactor {
  /** The role needs a factor the account lacks: a guest's rules until one is set up. */
  lacksRequiredFactor?: boolean;
  /** The role needs a factor and the account has one: the token says so (`mfa`). */
  restsOnSecondFactor?: boolean;
}

const keyCache = new Map<string, Uint8Array>();
function keyOf(secret: string): Uint8Array {
  let key = keyCache.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    keyCache.set(secret, key);
  }
  return key;
}

/**
 * Signs an access token of session `sessionId` for a user with the rules of their role (a
 * guest's until verified, or while a second factor their role needs is missing).
 */
export async function signAccessToken(
  settings: TokenSettings,
  user: { id: string; role: Role; verified_at: Date | null },
  sessionId: string,
  { lacksRequiredFactor = false, restsOnSecondFactor = false }: TokenFactor = {},
): Promise<string> {
  const iat = Math.floor(settings.now().getTime() / 1000);
  const ability = packedRulesFor(user, lacksRequiredFactor);
  const claims = {
    sid: sessionId,
    role: user.role,
    ability,
    ...(restsOnSecondFactor ? { mfa: true } : {}),
  };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(iat)
    .setExpirationTime(iat + settings.ttlSeconds)
    .sign(keyOf(settings.secret));
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; expired: boolean };

/**
 * Tokens this process has verified, with their claims: a client sends the same token with every
 * request until it refreshes, and checking its HMAC through WebCrypto each time was a tenth of
 * a server's CPU under load. Only tokens whose signature and claims passed get in (a stranger's
 * tokens take no room); the secret is kept with each, and expiry and issue time are checked
 * again on every use. The oldest make way past VERIFIED_MAX.
 */
const verified = new Map<string, { secret: string; claims: AccessClaims }>();
const VERIFIED_MAX = 10_000;

/** Refuses claims that have expired or were issued ahead of this server's clock. */
function timeRefusal(claims: AccessClaims, now: Date): VerifyResult | undefined {
  const nowS = Math.floor(now.getTime() / 1000);
  if (claims.expiresAt.getTime() / 1000 <= nowS) return { ok: false, expired: true };
  // A token "issued" in the future was not issued by a server with a sane clock.
  if (claims.issuedAt.getTime() / 1000 > nowS + CLOCK_SKEW_S) return { ok: false, expired: false };
  return undefined;
}

/** Verifies signature, expiry and claim shapes; never throws. */
export async function verifyAccessToken(
  settings: TokenSettings,
  token: string,
): Promise<VerifyResult> {
  const known = verified.get(token);
  if (known && known.secret === settings.secret) {
    return timeRefusal(known.claims, settings.now()) ?? { ok: true, claims: { ...known.claims } };
  }
  try {
    const { payload } = await jwtVerify(token, keyOf(settings.secret), {
      algorithms: [ALGORITHM],
      currentDate: settings.now(),
      // Tokens issued before sessions had ids (no `sid`) are refused: the client refreshes.
      requiredClaims: ['sub', 'sid', 'exp', 'iat', 'role', 'ability'],
    });
    const role = roleSchema.safeParse(payload.role);
    const { sid } = payload;
    if (!role.success || !payload.sub || typeof sid !== 'string' || sid === '') {
      return { ok: false, expired: false };
    }
    if (payload.iat === undefined || payload.exp === undefined)
      return { ok: false, expired: false };
    const claims: AccessClaims = {
      userId: payload.sub,
      sessionId: sid,
      role: role.data,
      ability: abilityFromPacked(payload.ability),
      expiresAt: new Date(payload.exp * 1000),
      issuedAt: new Date(payload.iat * 1000),
      restsOnSecondFactor: payload.mfa === true,
    };
    const refusal = timeRefusal(claims, settings.now());
    if (refusal) return refusal;
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { secret: settings.secret, claims });
    return { ok: true, claims: { ...claims } };
  } catch (error) {
    return { ok: false, expired: error instanceof errors.JWTExpired };
  }
}
