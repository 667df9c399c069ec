import { z } from 'zod/mini';

/** A search param that is ignored (undefined) when missing or malformed, never an error page. */
export const lenient = <T extends z.core.$ZodType>(schema: T) =>
  z.catch(z.optional(schema), undefined);

/**
 * Where sign-in may send the user afterwards: a path of this app. A browser reads `\` as `/` and
 * drops tabs and newlines from an address, so `/\evil.example` and `/<tab>/evil.example` are
 * `//evil.example`, another site. So a path may not start with `//` or `/\`, nor with their
 * encodings (`/%5Cevil`, which one decoding on the way makes `/\evil`), and holds no backslash or
 * control character anywhere: no path of this app has one.
 */
function isAppPath(value: string): boolean {
  return /^\/(?![/\\]|%2f|%5c)/i.test(value) && !/[\\\p{Cc}]/u.test(value);
}

export const safeRedirect = lenient(z.string().check(z.refine(isAppPath)));
export const optionalEmail = lenient(z.string().check(z.maxLength(254)));
