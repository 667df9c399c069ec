/** Sign-in, sign-up, codes and invitations by their holders, and one's own account. */
import { z } from 'zod/mini';
import {
  accountDeleteBodySchema,
  emailChangeBodySchema,
  emailChangeConfirmBodySchema,
  invitationAcceptBodySchema,
  invitationLookupBodySchema,
  invitationLookupResultSchema,
  passwordChangeBodySchema,
  proofMethodSchema,
  recoveryCodesRenewBodySchema,
  recoveryCodesSchema,
  secondFactorBodySchema,
  secondFactorDisableBodySchema,
  secondFactorRemovedSchema,
  secondFactorStatusSchema,
  signInResultSchema,
  totpConfirmBodySchema,
  totpEnrolmentBodySchema,
  totpEnrolmentSchema,
} from '../account-schemas';
import {
  authResultSchema,
  emailExistsResultSchema,
  emailOnlyBodySchema,
  emailSchema,
  loginBodySchema,
  logoutBodySchema,
  logoutResultSchema,
  passwordByCodeBodySchema,
  passwordIdVerificationBodySchema,
  passwordIdVerificationResultSchema,
  refreshBodySchema,
  refreshResultSchema,
  sentResultSchema,
  sessionInfoSchema,
  sessionsEndedSchema,
  signupBodySchema,
  signupResultSchema,
  userSchema,
  verifyBodySchema,
  verifyRequestResultSchema,
} from '../schemas';
import { bearer, open, ok, type Route } from './route';

const S = 'Sign-in';

/** A route that mails a code to the address given (answering the same whether it has an account). */
const MAILS_A_CODE: Partial<Route> = {
  body: emailOnlyBodySchema,
  answer: ok(sentResultSchema),
  errors: [429],
};

/** A route of the signed-in user about themselves: any role may call it. */
const mine = (method: Route['method'], path: string, summary: string, rest: Partial<Route> = {}) =>
  bearer(method, path, 'Account', summary, [], rest);

/** Routes of whoever signs in, and of the signed-in user about themselves. */
export const accountRoutes: Route[] = [
  open('post', '/v1/auth/signup', S, 'Sign up', {
    body: signupBodySchema,
    answer: ok(signupResultSchema),
    errors: [401, 409, 429],
  }),
  open('post', '/v1/auth/signup/passwordless', S, 'Sign up by e-mail code', MAILS_A_CODE),
  open('post', '/v1/auth/request-login-code', S, 'Mail a sign-in code', MAILS_A_CODE),
  open('post', '/v1/auth/login', S, 'Sign in', {
    body: loginBodySchema,
    answer: ok(signInResultSchema),
    errors: [401, 403, 429],
  }),
  open('post', '/v1/auth/second-factor', S, 'Second step of a sign-in', {
    body: secondFactorBodySchema,
    answer: ok(authResultSchema),
    errors: [401, 403, 429],
  }),
  open('post', '/v1/auth/refresh', S, 'Refresh the token pair', {
    body: refreshBodySchema,
    answer: ok(refreshResultSchema),
    errors: [401, 403],
  }),
  open('post', '/v1/auth/logout', S, 'Sign out', {
    body: logoutBodySchema,
    answer: ok(logoutResultSchema),
    errors: [401],
  }),
  bearer('post', '/v1/auth/password-id-verification', S, 'Check the password', [], {
    body: passwordIdVerificationBodySchema,
    answer: ok(passwordIdVerificationResultSchema),
    errors: [403, 429],
  }),

  mine('get', '/v1/users/me/sessions', 'My sessions', {
    answer: ok(z.array(sessionInfoSchema)),
  }),
  mine('delete', '/v1/users/me/sessions', 'End my other sessions', {
    answer: ok(sessionsEndedSchema),
  }),
  mine('delete', '/v1/users/me/sessions/{id}', 'End a session', {
    answer: ok(sessionsEndedSchema),
  }),
  mine('get', '/v1/users/me/proof', 'How I confirm changes', {
    answer: ok(proofMethodSchema),
  }),
  mine('post', '/v1/users/me/proof-code', 'Mail me a code to confirm a change', {
    answer: ok(sentResultSchema),
    errors: [409, 429],
  }),
  mine('post', '/v1/users/me/email', 'Change my e-mail address', {
    body: emailChangeBodySchema,
    answer: ok(verifyRequestResultSchema),
    errors: [403, 409, 429],
  }),
  mine('post', '/v1/users/me/email/confirm', 'Confirm the new address', {
    body: emailChangeConfirmBodySchema,
    answer: ok(userSchema),
  }),
  mine('put', '/v1/users/me/password', 'Change my password', {
    body: passwordChangeBodySchema,
    answer: ok(userSchema),
    errors: [403, 429],
  }),
  mine('delete', '/v1/users/me', 'Delete my account', {
    body: accountDeleteBodySchema,
    errors: [403, 429],
  }),
  mine('get', '/v1/users/me/second-factor', 'My two-step sign-in', {
    answer: ok(secondFactorStatusSchema),
  }),
  mine('post', '/v1/users/me/second-factor/totp', 'Set up an authenticator', {
    secret: true,
    body: totpEnrolmentBodySchema,
    answer: ok(totpEnrolmentSchema),
    errors: [403, 409, 429],
  }),
  mine('post', '/v1/users/me/second-factor/totp/confirm', 'Turn two-step sign-in on', {
    secret: true,
    body: totpConfirmBodySchema,
    answer: ok(recoveryCodesSchema),
    errors: [403, 409, 429],
  }),
  mine('delete', '/v1/users/me/second-factor', 'Turn two-step sign-in off', {
    body: secondFactorDisableBodySchema,
    answer: ok(secondFactorRemovedSchema),
    errors: [403, 429],
  }),
  mine('post', '/v1/users/me/second-factor/recovery-codes', 'New recovery codes', {
    secret: true,
    body: recoveryCodesRenewBodySchema,
    answer: ok(recoveryCodesSchema),
    errors: [403, 409, 429],
  }),

  open('post', '/v1/invitations/lookup', 'Invitations', 'What an invitation offers', {
    body: invitationLookupBodySchema,
    answer: ok(invitationLookupResultSchema),
    errors: [404, 429],
  }),
  open('post', '/v1/invitations/accept', 'Invitations', 'Accept an invitation', {
    body: invitationAcceptBodySchema,
    answer: ok(signInResultSchema),
    errors: [403, 404, 409, 429],
  }),

  open('post', '/v1/users/reset-password', S, 'Mail a password reset code', MAILS_A_CODE),
  open('patch', '/v1/users/password-by-code', S, 'Set a password by code', {
    body: passwordByCodeBodySchema,
    answer: ok(userSchema),
    errors: [429],
  }),
  open('post', '/v1/users/verify', S, 'Verify an e-mail address', {
    body: verifyBodySchema,
    answer: ok(z.union([userSchema, verifyRequestResultSchema])),
    errors: [401, 429],
  }),
  open('get', '/v1/users/email/{email}', S, 'Whether an address has an account', {
    params: { email: emailSchema },
    answer: ok(emailExistsResultSchema),
    errors: [429],
  }),
  mine('get', '/v1/users/me', 'Who I am', { answer: ok(userSchema) }),
];
