/**
 * What a new password must be (NIST SP 800-63B, section 3.1.1.2; ASVS 2.1.1): at least 12
 * characters whatever the role, at most 256 (long passphrases are welcome; the bound keeps
 * scrypt's input small), and not one of the common or breached passwords of zxcvbn-ts's list
 * (about 49,000, drawn from breach corpora). No composition rules and no expiry, as NIST
 * advises. The rule is for new passwords only: an older, shorter one still signs in. Server-only:
 * the list never reaches the SPA's bundle.
 */
import { createRequire } from 'node:module';
import type { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../contract/schemas';
import { fail } from '../http/errors';

// Loaded at the first check (it takes a few hundred milliseconds), not at every start. The
// list is lower case; a password differing only in case is as easy to guess.
let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  if (!common) {
    const list = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as {
      dictionary: typeof dictionary;
    };
    common = new Set(list.dictionary['passwords-common'].map((word) => word.toLowerCase()));
  }
  return common;
}

/** Why `password` may not be set for the user with `email`, or undefined when it may. */
export function passwordProblem(password: string, email?: string | null): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  const folded = password.normalize('NFKC').toLowerCase();
  if (commonPasswords().has(folded)) return 'is one of the most common passwords and easy to guess';
  const address = email?.toLowerCase();
  if (address && (folded === address || folded === address.split('@')[0])) {
    return 'must not be your e-mail address';
  }
  return undefined;
}

/** Answers 400 VALIDATION_ERROR ("password: <why>") when `password` may not be set. */
export function requireAcceptablePassword(password: string, email?: string | null): void {
  const problem = passwordProblem(password, email);
  if (problem) fail(400, 'VALIDATION_ERROR', `password: ${problem}`);
}
