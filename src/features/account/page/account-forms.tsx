import { useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import {
  changePassword,
  confirmEmailChange,
  deleteAccount,
  requestEmailChange,
  upgradeGuest,
} from '../../../api/account';
import { describeError, fieldErrorOf } from '../../../api/error-info';
import { selectUser } from '../../../machines/app-session';
import { useSessionActor } from '../../../machines/session.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { SchemaForm } from '../../../ui/dom/schema-form';
import { TextField } from '../../../ui/dom/text-field';
import { announce } from '../../../ui/dom/toasts';
import { authFields } from '../fields';
import { codeForm, newPasswordForm, signupForm } from '../forms';

/** Runs a form's request and keeps its error for the form; answers false when it failed. */
function useRequest() {
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await work();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };
  return { error, run };
}

const currentPasswordForm = z.object({ currentPassword: z.string() });
const emailChangeForm = z.extend(currentPasswordForm, {
  email: z.pipe(
    z.string().check(z.trim(), z.minLength(1, 'form.required')),
    z.email('form.invalidEmail'),
  ),
});
const passwordChangeForm = z.extend(newPasswordForm, currentPasswordForm.shape);

/** The current password: optional, as an account signed in only by codes has none. */
function useCurrentPasswordField() {
  const { t } = useTranslation();
  return {
    name: 'currentPassword',
    label: t('account.currentPassword'),
    type: 'password',
    autoComplete: 'current-password',
    description: t('account.currentPasswordHint'),
  } as const;
}

/** A new address counts once the code mailed to it comes back. */
export function EmailSection() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const email = useSelector(actor, (s) => selectUser(s).email);
  const verified = useSelector(actor, (s) => selectUser(s).settings.isEmailVerified);
  const currentPassword = useCurrentPasswordField();
  const ask = useRequest();
  const confirm = useRequest();
  const [pending, setPending] = useState<{ email: string; verificationId: string } | null>(null);

  return (
    <section className="account-section" aria-labelledby="account-email">
      <h2 id="account-email">{t('account.changeEmail')}</h2>
      {pending ? (
        <>
          <Alert tone="info">{t('account.codeSent', { email: pending.email })}</Alert>
          <SchemaForm
            label={t('account.confirmEmail')}
            schema={codeForm}
            defaultValues={{ code: '' }}
            fields={[authFields(t).code]}
            submitLabel={t('account.confirmEmail')}
            pendingLabel={t('account.confirmingEmail')}
            error={describeError(confirm.error, t)}
            onSubmit={({ code }) =>
              confirm.run(async () => {
                const user = await confirmEmailChange({
                  verificationId: pending.verificationId,
                  code: code.trim(),
                });
                actor.send({ type: 'USER_CHANGED', user });
                setPending(null);
                announce({
                  tone: 'success',
                  title: t('account.emailChanged', { email: user.email }),
                });
              })
            }
          />
          <ActionButton variant="link" onPress={() => setPending(null)}>
            {t('account.cancelEmail')}
          </ActionButton>
        </>
      ) : (
        <>
          <p>
            {t('account.email')}: <strong>{email}</strong> (
            {verified ? t('account.verified') : t('account.notVerified')})
          </p>
          <SchemaForm
            label={t('account.changeEmail')}
            schema={emailChangeForm}
            defaultValues={{ email: '', currentPassword: '' }}
            fields={[{ ...authFields(t).email, label: t('account.newEmail') }, currentPassword]}
            submitLabel={t('account.sendCode')}
            pendingLabel={t('account.sendingCode')}
            error={describeError(ask.error, t)}
            serverFieldErrors={{ currentPassword: fieldErrorOf(ask.error, 'password') }}
            onSubmit={(values) =>
              ask.run(async () => {
                const verificationId = await requestEmailChange({
                  email: values.email,
                  ...(values.currentPassword ? { password: values.currentPassword } : {}),
                });
                setPending({ email: values.email, verificationId });
              })
            }
          />
        </>
      )}
    </section>
  );
}

/** A new password; the current one confirms it, and every other session ends. */
export function PasswordSection() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const request = useRequest();
  const currentPassword = useCurrentPasswordField();
  return (
    <section className="account-section" aria-labelledby="account-password">
      <h2 id="account-password">{t('account.changePassword')}</h2>
      <SchemaForm
        label={t('account.changePassword')}
        schema={passwordChangeForm}
        defaultValues={{ currentPassword: '', password: '', confirmPassword: '' }}
        fields={[currentPassword, ...authFields(t).newPassword(t('form.newPassword'))]}
        submitLabel={t('account.savePassword')}
        pendingLabel={t('account.savingPassword')}
        error={describeError(request.error, t)}
        serverFieldErrors={{
          currentPassword: fieldErrorOf(request.error, 'currentPassword'),
          password: fieldErrorOf(request.error, 'password'),
        }}
        resetOnSuccess
        onSubmit={(values) =>
          request.run(async () => {
            await changePassword({
              password: values.password,
              ...(values.currentPassword ? { currentPassword: values.currentPassword } : {}),
            });
            actor.send({ type: 'PASSWORD_UPDATED' });
            announce({ tone: 'success', title: t('account.passwordChanged') });
          })
        }
      />
    </section>
  );
}

/** Deletes the account after a confirmation (the password, when it has one). */
export function DeleteSection() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const request = useRequest();
  const submit = () => {
    void request
      .run(() => deleteAccount(password ? { password } : {}))
      .then(async (deleted) => {
        if (!deleted) return;
        actor.send({ type: 'RESET' });
        // Said on the sign-in page, which stays: a toast would go with the signed-in area.
        await navigate({ to: '/signin', search: { notice: 'account_deleted' } });
      });
  };
  return (
    <section className="account-section danger-zone" aria-labelledby="account-delete">
      <h2 id="account-delete">{t('account.deleteTitle')}</h2>
      <p>{t('account.deleteIntro')}</p>
      {request.error !== null && <Alert tone="error">{describeError(request.error, t)}</Alert>}
      <ActionButton variant="danger" onPress={() => setOpen(true)}>
        {t('account.deleteTitle')}
      </ActionButton>
      <FormDialog
        isOpen={open}
        onClose={() => {
          setOpen(false);
          setPassword('');
        }}
        title={t('account.deleteConfirmTitle')}
        submitLabel={t('account.deleteConfirm')}
        cancelLabel={t('account.cancel')}
        tone="danger"
        onSubmit={submit}
      >
        <p>{t('account.deleteIntro')}</p>
        <TextField
          name="password"
          label={t('form.password')}
          type="password"
          autoComplete="current-password"
          description={t('account.deletePasswordHint')}
          value={password}
          onChange={setPassword}
        />
      </FormDialog>
    </section>
  );
}

/** A guest keeps its id, assets and wallets as a registered user (the spec's sign-up call). */
export function UpgradeSection() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const navigate = useNavigate();
  const request = useRequest();
  return (
    <section className="account-section" aria-labelledby="account-upgrade">
      <h2 id="account-upgrade">{t('account.upgradeTitle')}</h2>
      <p>{t('account.guest')}</p>
      <SchemaForm
        label={t('account.upgradeTitle')}
        schema={signupForm}
        defaultValues={{ email: '', password: '', confirmPassword: '' }}
        fields={[authFields(t).email, ...authFields(t).newPassword(t('form.password'))]}
        submitLabel={t('account.upgrade')}
        pendingLabel={t('account.upgrading')}
        error={describeError(request.error, t)}
        serverFieldErrors={{ password: fieldErrorOf(request.error, 'password') }}
        onSubmit={(values) =>
          request.run(async () => {
            const result = await upgradeGuest({ email: values.email, password: values.password });
            actor.send({ type: 'SESSION_STARTED', result });
            await navigate({
              to: '/verify-email',
              search: { verificationId: result.verificationId, email: values.email },
            });
          })
        }
      />
    </section>
  );
}
