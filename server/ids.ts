import { randomBytes } from 'node:crypto';

/** A new random id: 24 hex characters, the shape clients know from the platform's `_id`s. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}
