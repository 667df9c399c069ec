/**
 * Roles as CASL rules. The rules of a user's role travel inside the access token (`ability`
 * claim, packed), so the client can hide what the server would refuse and the server can
 * authorize without a database read. The rules are contract/ability.ts's `roleRules`; see
 * docs/roles.md.
 */
import { packRules } from '@casl/ability/extra';
import type { Role } from '../../contract/schemas';
import { roleRules, type PackedRules } from '../../contract/ability';

/**
 * Packs a user's rules for the token's `ability` claim. A registered account whose address is
 * not proven yet gets a guest's rules whatever its role: nobody gains a role's powers by signing
 * up with an address they do not hold (docs/roles.md "Unverified accounts"). So does an admin
 * who must enrol a second factor and has not (REQUIRE_ADMIN_2FA): enrolment needs no ability.
 */
export function packedRulesFor(
  user: { id: string; role: Role; verified_at: Date | null },
  lacksRequiredFactor = false,
): PackedRules {
  const role = user.verified_at === null || lacksRequiredFactor ? 'anonymous' : user.role;
  return packRules(roleRules(role, user.id));
}
