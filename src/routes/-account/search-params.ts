import { z } from 'zod/mini';

/** A search param that is ignored (undefined) when missing or malformed, never an error page. */
export const lenient = <T extends z.core.$ZodType>(schema: T) =>
  z.catch(z.optional(schema), undefined);

export const safeRedirect = lenient(z.string().check(z.regex(/^\/(?!\/)/)));
export const optionalEmail = lenient(z.string().check(z.maxLength(254)));
