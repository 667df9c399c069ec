/** Passkeys: one's own on the account page, and signing in with one. */
import { z } from 'zod/mini';
import {
  passkeyCeremonySchema,
  passkeyCreateBodySchema,
  passkeyDeleteBodySchema,
  passkeyOptionsBodySchema,
  passkeyRenameBodySchema,
  passkeySchema,
  passkeySignInBodySchema,
  passkeySignInResultSchema,
} from '../passkey-schemas';
import { bearer, ok, open, type Route } from './route';

const T = 'Passkeys';
const MINE = '/v1/users/me/passkeys';

export const passkeyRoutes: Route[] = [
  open('post', '/v1/auth/passkey/options', T, 'Start a sign-in with a passkey', {
    answer: ok(passkeyCeremonySchema),
    errors: [429],
  }),
  open('post', '/v1/auth/passkey', T, 'Sign in with a passkey', {
    body: passkeySignInBodySchema,
    answer: ok(passkeySignInResultSchema),
    errors: [401, 403, 429],
    secret: true,
  }),
  bearer('get', MINE, T, 'My passkeys', [], { answer: ok(z.array(passkeySchema)) }),
  bearer('post', `${MINE}/options`, T, 'Start adding a passkey', [], {
    body: passkeyOptionsBodySchema,
    answer: ok(passkeyCeremonySchema),
    errors: [403, 409, 429],
  }),
  bearer('post', MINE, T, 'Add a passkey', [], {
    body: passkeyCreateBodySchema,
    answer: ok(passkeySchema),
    errors: [401, 403, 409],
  }),
  bearer('patch', `${MINE}/{id}`, T, 'Rename a passkey', [], {
    body: passkeyRenameBodySchema,
    answer: ok(passkeySchema),
    errors: [404],
  }),
  bearer('delete', `${MINE}/{id}`, T, 'Remove a passkey', [], {
    body: passkeyDeleteBodySchema,
    answer: ok(z.array(passkeySchema)),
    errors: [403, 404, 429],
  }),
];
