import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { verify } from '../api/users';
import { selectIsLoggedIn, selectUser } from '../machines/app-session';
import { ActionButton } from '../ui/dom/action-button';
import { Alert } from '../ui/dom/alert';
import { AuthCard } from '../ui/dom/auth-card';
import { SchemaForm } from '../ui/dom/schema-form';
import { codeForm, lenient, optionalEmail } from './-components/auth-schemas';
import { authFields } from './-components/auth-fields';
import { useAsyncAction } from './-components/use-async-action';
import { useSessionActor } from './-components/use-session';

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
  const [resent, setResent] = useState(false);

  const confirm = useAsyncAction(
    useCallback(
      async (verificationId: string, code: string) => {
        const verified = await verify({ verificationId, code });
        actor.send({ type: 'EMAIL_VERIFIED', verificationId, user: verified });
        await (isLoggedIn
          ? navigate({ to: '/' })
          : navigate({ to: '/signin', search: { notice: 'email_verified', email } }));
      },
      [actor, email, isLoggedIn, navigate],
    ),
  );
  const resend = useAsyncAction(
    useCallback(
      async (address: string) => {
        setResent(false);
        const { verificationId } = await verify({ email: address });
        await navigate({ search: { verificationId, email: address } });
        setResent(true);
      },
      [navigate],
    ),
  );

  return (
    <AuthCard
      appName={t('app.name')}
      title={t('verify.title')}
      intro={email ? t('verify.introTo', { email }) : t('verify.intro')}
      footer={
        isLoggedIn ? (
          <Link to="/">{t('app.backHome')}</Link>
        ) : (
          <Link to="/signin">{t('signup.signIn')}</Link>
        )
      }
    >
      {!search.verificationId && <Alert tone="info">{t('verify.missing')}</Alert>}
      {resent && <Alert tone="success">{t('verify.resent')}</Alert>}
      {search.verificationId && (
        <SchemaForm
          label={t('verify.title')}
          schema={codeForm}
          defaultValues={{ code: search.code ?? '' }}
          fields={[authFields(t).code]}
          submitLabel={t('verify.submit')}
          pendingLabel={t('verify.pending')}
          error={confirm.error}
          onSubmit={({ code }) => confirm.run(search.verificationId ?? '', code)}
        />
      )}
      {resend.error && <Alert tone="error">{resend.error}</Alert>}
      {email && (
        <p>
          <ActionButton
            variant="link"
            isPending={resend.isPending}
            onPress={() => void resend.run(email)}
          >
            {t('verify.resend')}
          </ActionButton>
        </p>
      )}
    </AuthCard>
  );
}
