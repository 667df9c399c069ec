/**
 * What a user may do now, read from their account rather than from a token: the rules a token
 * issued at this moment would carry (server/auth/abilities.ts, session.ts `tokenFactorOf`), or
 * why none would be issued. Work that outlives the request that started it (a bulk job's
 * batches, an invitation honoured later) runs with this, so a demotion, a disable or a lost
 * second factor under REQUIRE_ADMIN_2FA stops it at once.
 */
import { abilityFromPacked, type AppAbility } from '../../contract/ability';
import type { Config } from '../config';
import type { Db } from '../db';
import { findUserById } from '../users';
import { packedRulesFor } from './abilities';
import { tokenFactorOf } from './session';

export type Authority = { ability: AppAbility } | { refusal: string };

/** The authority of user `userId` now: their rules, or why they have none. */
export async function currentAuthority(
  deps: { config: Pick<Config, 'requireAdminSecondFactor'> },
  db: Db,
  userId: string | null,
): Promise<Authority> {
  const user = userId === null ? undefined : await findUserById(db, userId);
  if (!user) return { refusal: 'the account was deleted' };
  if (user.disabled_at !== null) return { refusal: 'the account was disabled' };
  const { lacksRequiredFactor } = await tokenFactorOf(deps, db, user);
  return { ability: abilityFromPacked(packedRulesFor(user, lacksRequiredFactor)) };
}
