/**
 * What a user may do now, read from their account rather than from a token: the rules a token
 * issued at this moment would carry (server/auth/abilities.ts), or why none would be issued.
 * Work that outlives the request that started it (a bulk job's batches) runs with this, so a
 * demotion, a disable or a lost second factor under REQUIRE_ADMIN_2FA stops it at once.
 */
import { abilityFromPacked, type AppAbility } from '../../contract/ability';
import type { Db } from '../db';
import { findUserById } from '../users';
import { packedRulesFor } from './abilities';
import { hasSecondFactor } from './second-factor';

export type Authority = { ability: AppAbility } | { refusal: string };

/**
 * The authority of user `userId` now: their rules, or why they have none.
 * `requireAdminSecondFactor` is the server's REQUIRE_ADMIN_2FA.
 */
export async function currentAuthority(
  db: Db,
  userId: string,
  requireAdminSecondFactor: boolean,
): Promise<Authority> {
  const user = await findUserById(db, userId);
  if (!user) return { refusal: 'the account was deleted' };
  if (user.disabled_at !== null) return { refusal: 'the account was disabled' };
  const lacksRequiredFactor =
    requireAdminSecondFactor && user.role === 'admin' && !(await hasSecondFactor(db, userId));
  return { ability: abilityFromPacked(packedRulesFor(user, lacksRequiredFactor)) };
}
