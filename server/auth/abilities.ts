/**
 * Roles as CASL rules. The rules of a user's role travel inside the access token (`ability`
 * claim, packed), so the client can hide what the server would refuse and the server can
 * authorize without a database read. See server/ROLES.md.
 */
import { packRules } from '@casl/ability/extra';
import type { Role } from '../../contract/schemas';
import type { AppRule, PackedRules } from '../../contract/ability';

/** The rules each role grants; `userId` is the signed-in user's id for "own" conditions. */
function rulesFor(role: Role, userId: string): AppRule[] {
  switch (role) {
    case 'admin':
      return [{ action: 'manage', subject: 'all' }];
    case 'developer':
      return [
        { action: 'read', subject: 'all' },
        { action: ['create', 'update'], subject: ['Asset', 'CageMesh', 'Tag', 'Application'] },
        { action: 'update', subject: 'User', conditions: { _id: userId } },
        { action: 'access', subject: 'PrivateApi' },
      ];
    case 'user':
      return [
        { action: 'read', subject: ['Asset', 'Tag', 'CageMesh'] },
        { action: 'read', subject: 'UserAsset', conditions: { userId } },
        { action: 'update', subject: 'User', conditions: { _id: userId } },
      ];
    case 'anonymous':
      return [
        { action: 'read', subject: 'Asset' },
        { action: 'read', subject: 'UserAsset', conditions: { userId } },
      ];
  }
}

/**
 * Packs a user's rules for the token's `ability` claim. A registered account whose address is
 * not proven yet gets a guest's rules whatever its role: nobody gains a role's powers by signing
 * up with an address they do not hold (server/ROLES.md "Unverified accounts").
 */
export function packedRulesFor(user: {
  id: string;
  role: Role;
  verified_at: Date | null;
}): PackedRules {
  const role = user.verified_at === null ? 'anonymous' : user.role;
  return packRules(rulesFor(role, user.id));
}
