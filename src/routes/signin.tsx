import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { z } from 'zod/mini';
import { ActionButton } from '../ui/dom/action-button';
import { Alert } from '../ui/dom/alert';
import { AuthCard } from '../ui/dom/auth-card';
import { SchemaForm } from '../ui/dom/schema-form';
import { authFields, SecondStep, signinForm } from '../features/account';
import { selectSecondFactor } from '../machines/app-session';
import { lenient, optionalEmail, safeRedirect } from './-account/search-params';
import { describeError } from '../api/error-info';
import { useSessionForm } from '../machines/session.view';

const searchSchema = z.object({
  reason: lenient(z.enum(['login_required'])),
  notice: lenient(z.enum(['password_reset', 'email_verified', 'account_deleted'])),
  email: optionalEmail,
  redirect: safeRedirect,
});

export const Route = createFileRoute('/signin')({
  validateSearch: searchSchema,
  component: SignIn,
});

const NOTICES = {
  password_reset: 'signin.passwordReset',
  email_verified: 'signin.emailVerified',
  account_deleted: 'signin.accountDeleted',
} as const;

function SignIn() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  const { actor, isBusy, error, errorText, t } = useSessionForm(search.redirect ?? '/', {
    allowAnonymous: true,
  });
  const [action, setAction] = useState<'signin' | 'passkey' | 'guest' | null>(null);
  // Read once: a browser does not gain or lose WebAuthn while the page is open.
  const [passkeys] = useState(browserSupportsWebAuthn);
  const [email, setEmail] = useState(search.email ?? '');
  const [resendError, setResendError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const notVerified = (error as { code?: string } | null)?.code === 'USER_NOT_VERIFIED';
  const secondFactor = useSelector(actor, selectSecondFactor);

  const resend = async () => {
    setResending(true);
    setResendError(null);
    try {
      // Loaded on demand: the sign-in page itself ships no request code.
      const { verify } = await import('../api/users');
      const { verificationId } = await verify({ email });
      await navigate({ to: '/verify-email', search: { verificationId, email } });
    } catch (e) {
      setResendError(describeError(e, t));
    } finally {
      setResending(false);
    }
  };

  if (secondFactor) {
    return (
      <AuthCard appName={t('app.name')} title={t('secondStep.title')}>
        <SecondStep />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      appName={t('app.name')}
      title={t('signin.title')}
      footer={
        <>
          <span>
            {t('signin.noAccount')} <Link to="/signup">{t('signin.signUp')}</Link>
          </span>
          <Link to="/forgot-password" search={{ email: email || undefined }}>
            {t('signin.forgot')}
          </Link>
          <Link to="/passwordless">{t('signin.passwordless')}</Link>
        </>
      }
    >
      {search.reason === 'login_required' && <Alert tone="info">{t('signin.loginRequired')}</Alert>}
      {search.notice && <Alert tone="success">{t(NOTICES[search.notice])}</Alert>}
      <SchemaForm
        label={t('signin.title')}
        schema={signinForm}
        defaultValues={{ email: search.email ?? '', password: '' }}
        fields={[authFields(t).email, authFields(t).currentPassword]}
        submitLabel={t('signin.submit')}
        pendingLabel={t('signin.pending')}
        isPending={isBusy && action === 'signin'}
        error={action === 'signin' ? (resendError ?? errorText) : null}
        errorAction={
          notVerified ? (
            <ActionButton isPending={resending} onPress={() => void resend()}>
              {t('signin.resendVerification')}
            </ActionButton>
          ) : null
        }
        onSubmit={(values) => {
          setAction('signin');
          setEmail(values.email);
          actor.send({ type: 'LOGIN_VERIFIED', email: values.email, password: values.password });
        }}
      />
      <div className="divider">{t('signin.or')}</div>
      {(action === 'passkey' || action === 'guest') && errorText && !isBusy && (
        <Alert tone="error">{errorText}</Alert>
      )}
      {passkeys && (
        <ActionButton
          wide
          isPending={isBusy && action === 'passkey'}
          pendingLabel={t('signin.passkeyPending')}
          onPress={() => {
            setAction('passkey');
            actor.send({ type: 'LOGIN_PASSKEY' });
          }}
        >
          {t('signin.passkey')}
        </ActionButton>
      )}
      <ActionButton
        wide
        isPending={isBusy && action === 'guest'}
        pendingLabel={t('signin.guestPending')}
        onPress={() => {
          setAction('guest');
          actor.send({ type: 'SIGNUP' });
        }}
      >
        {t('signin.guest')}
      </ActionButton>
    </AuthCard>
  );
}
