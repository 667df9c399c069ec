import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../contract/schemas';
import { initI18n } from '../../i18n';
import { authFields } from './fields';
import { newPasswordForm, resetForm, signupForm } from './forms';

beforeAll(() => {
  initI18n();
});

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

describe('the hint under a new password', () => {
  it('says what the server checks, and that every role, admins too, needs the same', () => {
    const [password] = authFields(i18next.t.bind(i18next)).newPassword('New password');
    const hint = password?.description;
    expect(hint).toContain(`${PASSWORD_MIN_LENGTH} characters for every role`);
    expect(hint).toContain('administrators included');
    expect(hint).toContain(`at most ${PASSWORD_MAX_LENGTH}`);
    // server/auth/password-policy.ts also refuses common passwords and the e-mail address.
    expect(hint).toMatch(/common password.*e-mail address/);
  });
});
