import type { TFunction } from 'i18next';
import type { FieldSpec } from '../../ui/dom/schema-form';

/** The fields the account screens share, labelled in the current language. */
export function authFields(t: TFunction) {
  return {
    email: {
      name: 'email',
      label: t('form.email'),
      type: 'email',
      autoComplete: 'email',
    } satisfies FieldSpec<'email'>,
    currentPassword: {
      name: 'password',
      label: t('form.password'),
      type: 'password',
      autoComplete: 'current-password',
    } satisfies FieldSpec<'password'>,
    code: {
      name: 'code',
      label: t('form.code'),
      autoComplete: 'one-time-code',
      inputMode: 'numeric',
      description: t('form.codeHint'),
      autoFocus: true,
    } satisfies FieldSpec<'code'>,
    /** A new password and its confirmation; `label` names the first. */
    newPassword: (label: string) =>
      [
        {
          name: 'password',
          label,
          type: 'password',
          autoComplete: 'new-password',
          description: t('form.passwordHint'),
        },
        {
          name: 'confirmPassword',
          label: t('form.confirmPassword'),
          type: 'password',
          autoComplete: 'new-password',
        },
      ] satisfies FieldSpec<'password' | 'confirmPassword'>[],
  };
}
