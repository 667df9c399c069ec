/**
 * What the signed-in user may do: the CASL rules of their role, which the server packs into
 * the access token's `ability` claim (server/auth/abilities.ts defines them, docs/roles.md
 * lists them). The back office offers only what these allow; the server still decides.
 */
import {
  createMongoAbility,
  subject as typed,
  type ForcedSubject,
  type MongoAbility,
  type RawRuleOf,
} from '@casl/ability';
import { unpackRules, type PackRule } from '@casl/ability/extra';
import { jwtDecode } from 'jwt-decode';
import type { Role } from './user-schemas';

export type Action = 'manage' | 'create' | 'read' | 'update' | 'delete' | 'access';
export type Subject =
  | 'all'
  | 'Asset'
  | 'CageMesh'
  | 'Tag'
  | 'UserAsset'
  | 'User'
  | 'Application'
  | 'MorphedAsset'
  | 'PrivateApi';
/** The fields rules may have conditions on: `userId` (UserAsset), `_id` (User). */
export interface SubjectFields {
  userId?: string;
  _id?: string;
}
/** A record checked against conditions, e.g. `subject('UserAsset', { userId })`. */
type SubjectRecord = ForcedSubject<Exclude<Subject, 'all'>> & SubjectFields;
export type AppAbility = MongoAbility<[Action, Subject | SubjectRecord]>;
export type AppRule = RawRuleOf<AppAbility>;
export type PackedRules = PackRule<AppRule>[];

/**
 * The rules each role grants; `userId` is the signed-in user's id for "own" conditions. The
 * server packs them into tokens (server/auth/abilities.ts), the route table (routes.ts) names
 * the roles each route allows from them; docs/roles.md mirrors them.
 */
export function roleRules(role: Role, userId: string): AppRule[] {
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

/** Rebuilds an ability from a token's packed rules; throws when the claim is not packed rules. */
export function abilityFromPacked(packed: unknown): AppAbility {
  if (!Array.isArray(packed) || !packed.every((rule) => Array.isArray(rule))) {
    throw new TypeError('ability claim is not a list of packed rules');
  }
  return createMongoAbility<AppAbility>(unpackRules(packed as PackedRules));
}

/**
 * Whether the user may do `action` on `subject`; with `record`, on that record (conditions
 * such as "own user assets" are checked against it). Without a record, true when some rule
 * could allow it. Subject `all` asks for a rule over every subject (`manage all`: an admin).
 */
export type Can = (action: Action, subject: Subject, record?: SubjectFields) => boolean;

/** The `ability` claim of an access token, or none when it is missing or malformed. */
export function abilityClaimOf(token: string | null): unknown {
  try {
    return token ? jwtDecode<{ ability?: unknown }>(token).ability : undefined;
  } catch {
    return undefined;
  }
}

/** The checks of an `ability` claim; a missing or malformed claim may do nothing. */
export function permissionsOf(claim: unknown): Can {
  let ability: AppAbility;
  try {
    ability = abilityFromPacked(claim);
  } catch {
    ability = createMongoAbility<AppAbility>([]);
  }
  return (action, subject, record) =>
    record && subject !== 'all'
      ? ability.can(action, typed(subject, { ...record }))
      : ability.can(action, subject);
}
