import { describe, expect, it } from 'vitest';
import { newPasswordForm, resetForm, signupForm } from './forms';

const issuesOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('the account forms’ password rule', () => {
  it('asks 12 characters of a new password, for every form that sets one', () => {
    const eleven = { password: 'ovfw-kzq-ra', confirmPassword: 'ovfw-kzq-ra' };
    const twelve = { password: 'ovfw-kzq-rab', confirmPassword: 'ovfw-kzq-rab' };
    const forms = [
      [newPasswordForm, {}],
      [signupForm, { email: 'ada@example.com' }],
      [resetForm, { code: '123456' }],
    ] as const;
    for (const [form, rest] of forms) {
      expect(issuesOf(form.safeParse({ ...rest, ...eleven }))).toEqual([
        'password: form.passwordTooShort',
      ]);
      expect(issuesOf(form.safeParse({ ...rest, ...twelve }))).toEqual([]);
    }
  });
});
