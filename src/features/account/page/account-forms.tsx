import { useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
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
import { SchemaForm } from '../../../ui/dom/schema-form';
import { announce } from '../../../ui/dom/toasts';
import { authFields } from '../fields';
import { codeForm, newPasswordForm, signupForm } from '../forms';
import {
  proofBody,
  proofFields,
  ProofDialog,
  proofRule,
  SendProofCode,
  useOwnerProof,
} from './owner-proof';

/** Runs a form's request and keeps its error for the form; answers false when it failed. */
export function useRequest() {
  const [error, setError] = useState<unknown>(null);
  const clear = () => setError(null);
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
  return { error, run, clear };
}

const newEmail = z.pipe(
  z.string().check(z.trim(), z.minLength(1, 'form.required')),
  z.email('form.invalidEmail'),
);

/** The server's reason for refusing the proof (a password or a code), for its field. */
export const proofErrorOf = (error: unknown, passwordField = 'password') =>
  fieldErrorOf(error, passwordField) ?? fieldErrorOf(error, 'code');

/**
 * A new address counts once the code mailed to it comes back; asking for it takes fresh proof
 * (the password, or a code mailed to the current address).
 */
export function EmailSection() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const email = useSelector(actor, (s) => selectUser(s).email);
  const verified = useSelector(actor, (s) => selectUser(s).settings.isEmailVerified);
  const proof = useOwnerProof();
  const schema = useMemo(() => z.object({ email: newEmail, proof: proofRule(proof) }), [proof]);
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
            schema={schema}
            defaultValues={{ email: '', proof: '' }}
            fields={[
              { ...authFields(t).email, label: t('account.newEmail') },
              ...proofFields(t, proof),
            ]}
            submitLabel={t('account.sendCode')}
            pendingLabel={t('account.sendingCode')}
            error={describeError(ask.error, t)}
            serverFieldErrors={{ proof: proofErrorOf(ask.error) }}
            onSubmit={(values) =>
              ask.run(async () => {
                const verificationId = await requestEmailChange({
                  email: values.email,
                  ...proofBody(proof, values.proof),
                });
                setPending({ email: values.email, verificationId });
              })
            }
          >
            <SendProofCode proof={proof} />
          </SchemaForm>
        </>
      )}
    </section>
  );
}

/**
 * A new password; the current one confirms it (an account that signs in by codes sets a first
 * one, confirmed by a mailed code), and every other session ends.
 */
export function PasswordSection() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const request = useRequest();
  const proof = useOwnerProof();
  const schema = useMemo(() => z.extend(newPasswordForm, { proof: proofRule(proof) }), [proof]);
  const first = proof.method === 'code';
  const title = first ? t('account.setPassword') : t('account.changePassword');
  const newPassword = authFields(t).newPassword(t('form.newPassword'));
  const confirm = proofFields(t, proof);
  return (
    <section className="account-section" aria-labelledby="account-password">
      <h2 id="account-password">{title}</h2>
      {first && <p>{t('account.setPasswordIntro')}</p>}
      <SchemaForm
        label={title}
        schema={schema}
        defaultValues={{ proof: '', password: '', confirmPassword: '' }}
        // The mailed code last, beside the button that sends it.
        fields={first ? [...newPassword, ...confirm] : [...confirm, ...newPassword]}
        submitLabel={first ? title : t('account.savePassword')}
        pendingLabel={t('account.savingPassword')}
        error={describeError(request.error, t)}
        serverFieldErrors={{
          proof: proofErrorOf(request.error, 'currentPassword'),
          password: fieldErrorOf(request.error, 'password'),
        }}
        resetOnSuccess
        onSubmit={(values) =>
          request.run(async () => {
            const { password: currentPassword, code } = proofBody(proof, values.proof);
            await changePassword({
              password: values.password,
              ...(currentPassword ? { currentPassword } : {}),
              ...(code ? { code } : {}),
            });
            actor.send({ type: 'PASSWORD_UPDATED' });
            announce({ tone: 'success', title: t('account.passwordChanged') });
          })
        }
      >
        <SendProofCode proof={proof} />
      </SchemaForm>
    </section>
  );
}

/** Deletes the account after a confirmation (the password, or a mailed code; a guest's: none). */
export function DeleteSection() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const request = useRequest();
  return (
    <section className="account-section danger-zone" aria-labelledby="account-delete">
      <h2 id="account-delete">{t('account.deleteTitle')}</h2>
      <p>{t('account.deleteIntro')}</p>
      {request.error !== null && <Alert tone="error">{describeError(request.error, t)}</Alert>}
      <ActionButton variant="danger" onPress={() => setOpen(true)}>
        {t('account.deleteTitle')}
      </ActionButton>
      <ProofDialog
        isOpen={open}
        onClose={() => setOpen(false)}
        title={t('account.deleteConfirmTitle')}
        submitLabel={t('account.deleteConfirm')}
        passwordLabel={t('form.password')}
        passwordHint={t('account.deletePasswordHint')}
        onConfirm={(proof) =>
          void request
            .run(() => deleteAccount(proof))
            .then(async (deleted) => {
              if (!deleted) return;
              actor.send({ type: 'RESET' });
              // Said on the sign-in page, which stays: a toast would go with the signed-in area.
              await navigate({ to: '/signin', search: { notice: 'account_deleted' } });
            })
        }
      >
        <p>{t('account.deleteIntro')}</p>
      </ProofDialog>
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
