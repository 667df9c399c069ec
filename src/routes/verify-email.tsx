import { useMutation } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { describeError } from '../api/error-info';
import { refreshSession } from '../api/http';
import { queryClient } from '../api/query';
import { verify } from '../api/users';
import { selectIsLoggedIn, selectUser } from '../machines/app-session';
import { ActionButton } from '../ui/dom/action-button';
import { Alert } from '../ui/dom/alert';
import { AuthCard } from '../ui/dom/auth-card';
import { SchemaForm } from '../ui/dom/schema-form';
import { authFields, codeForm, emailForm } from '../features/account';
import { lenient, optionalEmail } from './-account/search-params';
import { useSessionActor } from '../machines/session.view';

export const Route = createFileRoute('/verify-email')({
  validateSearch: z.object({
    verificationId: lenient(z.string().check(z.minLength(1), z.maxLength(200))),
    code: lenient(z.string()),
    email: optionalEmail,
  }),
  component: VerifyEmail,
});

function VerifyEmail() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const { t } = useTranslation();
  const actor = useSessionActor();
  const isLoggedIn = useSelector(actor, selectIsLoggedIn);
  const user = useSelector(actor, selectUser);
  const email = search.email ?? user.email ?? undefined;

  // The account screens load before the signed-in area's QueryClientProvider: name the client.
  const confirm = useMutation(
    {
      mutationFn: (body: { verificationId: string; code: string }) => verify(body),
      onSuccess: async (verified, { verificationId }) => {
        actor.send({ type: 'EMAIL_VERIFIED', verificationId, user: verified });
        // An unverified account's token carries a guest's rules: fetch one with the role's.
        if (isLoggedIn) await refreshSession({ force: true }).catch(() => undefined);
        return isLoggedIn
          ? navigate({ to: '/' })
          : navigate({ to: '/signin', search: { notice: 'email_verified', email } });
      },
    },
    queryClient,
  );
  const resend = useMutation(
    {
      mutationFn: (address: string) => verify({ email: address }),
      onSuccess: ({ verificationId }, address) =>
        navigate({ search: { verificationId, email: address } }),
    },
    queryClient,
  );
  const resendError = describeError(resend.error, t);

  return (
    <AuthCard
      appName={t('app.name')}
      title={t('verify.title')}
      intro={
        search.verificationId
          ? email
            ? t('verify.introTo', { email })
            : t('verify.intro')
          : email
            ? t('verify.introMissingTo', { email })
            : t('verify.introMissing')
      }
      footer={
        isLoggedIn ? (
          <Link to="/">{t('app.backHome')}</Link>
        ) : (
          <Link to="/signin">{t('signup.signIn')}</Link>
        )
      }
    >
      {!search.verificationId && <Alert tone="info">{t('verify.missing')}</Alert>}
      {resend.isSuccess && <Alert tone="success">{t('verify.resent')}</Alert>}
      {search.verificationId && (
        <SchemaForm
          label={t('verify.title')}
          schema={codeForm}
          defaultValues={{ code: search.code ?? '' }}
          fields={[authFields(t).code]}
          submitLabel={t('verify.submit')}
          pendingLabel={t('verify.pending')}
          isPending={confirm.isPending}
          error={describeError(confirm.error, t)}
          onSubmit={({ code }) =>
            confirm.mutate({ verificationId: search.verificationId ?? '', code })
          }
        />
      )}
      {resendError && <Alert tone="error">{resendError}</Alert>}
      {/* Without an address to send to, ask for one: "request a new code below" is here. */}
      {!email && (
        <SchemaForm
          label={t('verify.sendTitle')}
          schema={emailForm}
          defaultValues={{ email: '' }}
          fields={[authFields(t).email]}
          submitLabel={t('verify.resend')}
          pendingLabel={t('verify.sending')}
          isPending={resend.isPending}
          onSubmit={({ email: address }) => resend.mutate(address)}
        />
      )}
      {email && (
        <p>
          <ActionButton
            variant="link"
            isPending={resend.isPending}
            onPress={() => resend.mutate(email)}
          >
            {t('verify.resend')}
          </ActionButton>
        </p>
      )}
    </AuthCard>
  );
}
