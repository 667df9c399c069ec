/**
 * The session record in browser storage (spec §3), under the key `persist:user`.
 *
 * Exact JSON shape written (one plain JSON document, no nested encoding):
 *
 *   {
 *     "data": {
 *       "token": string | null,
 *       "refreshToken": string | null,
 *       "_id": string | null,
 *       "email": string | null,
 *       "verifiedAt": string | null,
 *       "assets": string[],
 *       "wallets": string[],
 *       "settings": { "isPasswordUpdated": boolean, "isEmailVerified": boolean }
 *     },
 *     "isLoggedIn": boolean,
 *     "isAnonymous": boolean
 *   }
 *
 * The session flags isLoggingOut, isCreating and isRestored are not written, nor are the
 * transient UI fields (error, lastVerificationId). isLoggedIn and isAnonymous are written for
 * readers outside the app but never read back: they are always derived from `data` again.
 */
import { z } from 'zod/mini';
import {
  defaultSessionContext,
  defaultSessionUser,
  isAnonymous,
  isLoggedIn,
  sessionContextFrom,
  type SessionContext,
  type SessionRecord,
  type SessionUser,
} from './session.machine';

export const SESSION_STORAGE_KEY = 'persist:user';

/** The subset of the Storage API the session needs (localStorage, or a fake in tests). */
export type SessionStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface PersistedSession extends SessionRecord {
  isLoggedIn: boolean;
  isAnonymous: boolean;
}

const defaults = defaultSessionUser();
const nullableString = z._default(z.catch(z.nullable(z.string()), null), null);
const stringSet = z._default(
  z.pipe(
    z.catch(z.array(z.string()), []),
    z.transform((values: string[]) => [...new Set(values)]),
  ),
  [],
);
const flag = z._default(z.catch(z.boolean(), false), false);

// Lenient on purpose: a damaged field falls back to its default instead of losing the session.
const storedUserSchema = z.object({
  token: nullableString,
  refreshToken: nullableString,
  _id: nullableString,
  email: nullableString,
  verifiedAt: nullableString,
  assets: stringSet,
  wallets: stringSet,
  settings: z._default(
    z.catch(z.object({ isPasswordUpdated: flag, isEmailVerified: flag }), defaults.settings),
    defaults.settings,
  ),
});
const storedRecordSchema = z.object({ data: storedUserSchema });

/** The persisted form of the store. */
export function toPersisted(context: Pick<SessionContext, 'data'>): PersistedSession {
  const { token, refreshToken, _id, email, verifiedAt, assets, wallets, settings } = context.data;
  const data: SessionUser = {
    token,
    refreshToken,
    _id,
    email,
    verifiedAt,
    assets: [...assets],
    wallets: [...wallets],
    settings: {
      isPasswordUpdated: settings.isPasswordUpdated,
      isEmailVerified: settings.isEmailVerified,
    },
  };
  return { data, isLoggedIn: isLoggedIn(context), isAnonymous: isAnonymous(context) };
}

/** Writes the record; storage failures (quota, private mode) only cost persistence. */
export function persist(storage: SessionStorage, context: Pick<SessionContext, 'data'>): void {
  try {
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(toPersisted(context)));
  } catch {
    // The in-memory session keeps working; it just will not survive a reload.
  }
}

/** Parses a stored value (or any JSON text) into a record; null when absent or unreadable. */
export function parseRecord(raw: string | null): SessionRecord | null {
  if (raw === null) return null;
  try {
    const parsed = storedRecordSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Reads the stored record as is (with or without tokens); null when absent or unreadable. */
export function readRecord(storage: SessionStorage): SessionRecord | null {
  try {
    return parseRecord(storage.getItem(SESSION_STORAGE_KEY));
  } catch {
    return null;
  }
}

/** Spec §3 restore: the stored session only if it holds a token, else logged out and not anonymous. */
export function restore(storage: SessionStorage): SessionContext {
  const record = readRecord(storage);
  // isCreating and the other flags are never taken from storage: sessionContextFrom starts them false.
  return record?.data.token ? sessionContextFrom(record.data) : defaultSessionContext();
}
