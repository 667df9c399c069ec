import { z } from 'zod/mini';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../contract/schemas';

/** The account forms' rules, client side. Messages are i18n keys, translated by the form. */
const required = z.minLength(1, 'form.required');
const email = z.pipe(z.string().check(z.trim(), required), z.email('form.invalidEmail'));
const password = z.string().check(required);
const newPassword = z
  .string()
  .check(
    required,
    z.minLength(PASSWORD_MIN_LENGTH, 'form.passwordTooShort'),
    z.maxLength(PASSWORD_MAX_LENGTH, 'form.passwordTooLong'),
  );
const code = z.string().check(z.trim(), required, z.regex(/^\d{6}$/, 'form.invalidCode'));

const samePasswords = z.refine<{ password: string; confirmPassword: string }>(
  (v) => v.password === v.confirmPassword,
  {
    message: 'form.passwordsDiffer',
    path: ['confirmPassword'],
  },
);

export const signinForm = z.object({ email, password });
export const emailForm = z.object({ email });
export const codeForm = z.object({ code });
export const signupForm = z
  .object({ email, password: newPassword, confirmPassword: password })
  .check(samePasswords);
export const newPasswordForm = z
  .object({ password: newPassword, confirmPassword: password })
  .check(samePasswords);
export const resetForm = z
  .object({ code, password: newPassword, confirmPassword: password })
  .check(samePasswords);
export const recoveryCodeForm = z.object({
  code: z
    .string()
    .check(
      z.trim(),
      required,
      z.regex(/^\s*[a-z2-7]{5}[\s-]?[a-z2-7]{5}\s*$/i, 'secondStep.invalidRecoveryCode'),
    ),
});
