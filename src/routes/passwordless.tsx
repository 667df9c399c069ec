import { useMutation } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { z } from 'zod/mini';
import { requestLoginCode, signupPasswordless } from '../api/auth';
import { describeError } from '../api/error-info';
import { queryClient } from '../api/query';
import { emailExists } from '../api/users';
import { ActionButton } from '../ui/dom/action-button';
import { Alert } from '../ui/dom/alert';
import { AuthCard } from '../ui/dom/auth-card';
import { SchemaForm } from '../ui/dom/schema-form';
import { authFields, codeForm, emailForm, SecondStep } from '../features/account';
import { selectSecondFactor } from '../machines/app-session';
import { optionalEmail } from './-account/search-params';
import { useSessionForm } from '../machines/session.view';

export const Route = createFileRoute('/passwordless')({
  validateSearch: z.object({ email: optionalEmail }),
  component: Passwordless,
});

/** Mails a login code: existing accounts get a login code, new addresses an account too. */
async function sendCode(email: string) {
  const exists = await emailExists(email);
  await (exists ? requestLoginCode({ email }) : signupPasswordless({ email }));
}

function Passwordless() {
  // The e-mail lives in the address so a reload keeps the step.
  const { email } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const session = useSessionForm('/');
  const { t } = session;
  // The account screens load before the signed-in area's QueryClientProvider: name the client.
  const request = useMutation(
    {
      mutationFn: sendCode,
      onSuccess: (_, address) => navigate({ search: { email: address } }),
    },
    queryClient,
  );
  const requestError = describeError(request.error, t);
  const secondFactor = useSelector(session.actor, selectSecondFactor);
  if (secondFactor) {
    return (
      <AuthCard appName={t('app.name')} title={t('secondStep.title')}>
        <SecondStep />
      </AuthCard>
    );
  }

  const fields = authFields(t);
  return (
    <AuthCard
      appName={t('app.name')}
      title={t('passwordless.title')}
      intro={email ? t('passwordless.sent', { email }) : t('passwordless.intro')}
      footer={<Link to="/signin">{t('signup.signIn')}</Link>}
    >
      {email ? (
        <>
          <SchemaForm
            key="code"
            label={t('passwordless.title')}
            schema={codeForm}
            defaultValues={{ code: '' }}
            fields={[fields.code]}
            submitLabel={t('passwordless.submit')}
            pendingLabel={t('passwordless.pending')}
            isPending={session.isBusy}
            error={session.errorText}
            onSubmit={({ code }) => session.actor.send({ type: 'LOGIN', email, code })}
          />
          {requestError && <Alert tone="error">{requestError}</Alert>}
          <p className="row-actions">
            <ActionButton
              variant="link"
              isPending={request.isPending}
              onPress={() => request.mutate(email)}
            >
              {t('passwordless.resend')}
            </ActionButton>{' '}
            <Link to="/passwordless" search={{}}>
              {t('passwordless.otherEmail')}
            </Link>
          </p>
        </>
      ) : (
        <SchemaForm
          key="email"
          label={t('passwordless.title')}
          schema={emailForm}
          defaultValues={{ email: '' }}
          fields={[fields.email]}
          submitLabel={t('passwordless.send')}
          pendingLabel={t('passwordless.sending')}
          isPending={request.isPending}
          error={requestError}
          onSubmit={({ email: address }) => request.mutate(address)}
        />
      )}
    </AuthCard>
  );
}
