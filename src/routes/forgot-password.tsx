import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { z } from 'zod/mini';
import { passwordByCode, resetPassword } from '../api/users';
import { AuthCard } from '../ui/dom/auth-card';
import { SchemaForm } from '../ui/dom/schema-form';
import { emailForm, lenient, optionalEmail, resetForm } from './-components/auth-schemas';
import { authFields } from './-components/auth-fields';
import { useAsyncAction } from './-components/use-async-action';
import { useSessionForm } from './-components/use-session-form';

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
  const request = useAsyncAction(
    useCallback(
      async (address: string) => {
        await resetPassword({ email: address });
        await navigate({ search: { email: address, step: 'code' } });
      },
      [navigate],
    ),
  );
  const change = useAsyncAction(
    useCallback(
      async (address: string, code: string, password: string) => {
        await passwordByCode({ email: address, code, password });
        actor.send({ type: 'PASSWORD_UPDATED' });
        await navigate({ to: '/signin', search: { notice: 'password_reset', email: address } });
      },
      [actor, navigate],
    ),
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
          error={change.error}
          onSubmit={(v) => change.run(email, v.code, v.password)}
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
          error={request.error}
          onSubmit={({ email: address }) => request.run(address)}
        />
      )}
    </AuthCard>
  );
}
