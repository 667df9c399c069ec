/**
 * `toEqual` on two Uint8Arrays (or two Buffers) compares their bytes at once. Vitest's own
 * equality walks a typed array as an iterable, element by element: about 5 s for one 800 KB
 * model (server/uploads.test.ts spent 15 of its 26 s there). A mismatch still fails as before,
 * with the usual diff; arrays of other types, or of two different types, take the usual path.
 */
import { expect } from 'vitest';

export function sameBytes(a: unknown, b: unknown): boolean | undefined {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.constructor !== b.constructor)
    return undefined;
  return Buffer.compare(a, b) === 0;
}

expect.addEqualityTesters([sameBytes]);
