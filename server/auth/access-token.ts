/**
 * Short-lived access tokens: HS256 JWTs carrying `sub`, `sid` (the session: the refresh-token
 * family), `role`, `iat`, `exp` and the packed CASL rules of the role in `ability`. A valid
 * signature is not enough: the session must still be live (server/auth/middleware.ts).
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
  { lacksRequiredFactor = false } = {},
): Promise<string> {
  const iat = Math.floor(settings.now().getTime() / 1000);
  const ability = packedRulesFor(user, lacksRequiredFactor);
  const claims = { sid: sessionId, role: user.role, ability };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(iat)
    .setExpirationTime(iat + settings.ttlSeconds)
    .sign(keyOf(settings.secret));
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; expired: boolean };

/** Verifies signature, expiry and claim shapes; never throws. */
export async function verifyAccessToken(
  settings: TokenSettings,
  token: string,
): Promise<VerifyResult> {
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
    // A token "issued" in the future was not issued by a server with a sane clock.
    const nowS = Math.floor(settings.now().getTime() / 1000);
    if ((payload.iat ?? Infinity) > nowS + CLOCK_SKEW_S) return { ok: false, expired: false };
    const ability = abilityFromPacked(payload.ability);
    const expiresAt = new Date((payload.exp ?? 0) * 1000);
    const issuedAt = new Date((payload.iat ?? 0) * 1000);
    return {
      ok: true,
      claims: {
        userId: payload.sub,
        sessionId: sid,
        role: role.data,
        ability,
        expiresAt,
        issuedAt,
      },
    };
  } catch (error) {
    return { ok: false, expired: error instanceof errors.JWTExpired };
  }
}
