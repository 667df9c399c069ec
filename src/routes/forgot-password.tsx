import { useMutation } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { describeError, fieldErrorOf } from '../api/error-info';
import { queryClient } from '../api/query';
import { passwordByCode, resetPassword } from '../api/users';
import { AuthCard } from '../ui/dom/auth-card';
import { SchemaForm } from '../ui/dom/schema-form';
import { authFields, emailForm, resetForm } from '../features/account';
import { lenient, optionalEmail } from './-account/search-params';
import { useSessionForm } from '../machines/session.view';

export const Route = createFileRoute('/forgot-password')({
  validateSearch: z.object({
    email: optionalEmail,
    step: lenient(z.enum(['code'])),
  }),
  component: ForgotPassword,
});

function ForgotPassword() {
  const { email, step } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const { actor, t } = useSessionForm(null);
  // The account screens load before the signed-in area's QueryClientProvider: name the client.
  const request = useMutation(
    {
      mutationFn: (address: string) => resetPassword({ email: address }),
      onSuccess: (_, address) => navigate({ search: { email: address, step: 'code' } }),
    },
    queryClient,
  );
  const change = useMutation(
    {
      mutationFn: (body: { email: string; code: string; password: string }) => passwordByCode(body),
      onSuccess: (_, { email: address }) => {
        actor.send({ type: 'PASSWORD_UPDATED' });
        return navigate({ to: '/signin', search: { notice: 'password_reset', email: address } });
      },
    },
    queryClient,
  );

  const fields = authFields(t);
  const codeStep = step === 'code' && email;
  return (
    <AuthCard
      appName={t('app.name')}
      title={t('forgot.title')}
      intro={codeStep ? t('forgot.sent', { email }) : t('forgot.intro')}
      footer={<Link to="/signin">{t('signup.signIn')}</Link>}
    >
      {codeStep ? (
        <SchemaForm
          key="code"
          label={t('forgot.title')}
          schema={resetForm}
          defaultValues={{ code: '', password: '', confirmPassword: '' }}
          fields={[fields.code, ...fields.newPassword(t('form.newPassword'))]}
          submitLabel={t('forgot.submit')}
          pendingLabel={t('forgot.pending')}
          isPending={change.isPending}
          error={describeError(change.error, t)}
          serverFieldErrors={{ password: fieldErrorOf(change.error, 'password') }}
          onSubmit={(v) => change.mutate({ email, code: v.code, password: v.password })}
        />
      ) : (
        <SchemaForm
          key="email"
          label={t('forgot.title')}
          schema={emailForm}
          defaultValues={{ email: email ?? '' }}
          fields={[fields.email]}
          submitLabel={t('forgot.send')}
          pendingLabel={t('forgot.sending')}
          isPending={request.isPending}
          error={describeError(request.error, t)}
          onSubmit={({ email: address }) => request.mutate(address)}
        />
      )}
    </AuthCard>
  );
}
