import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fieldErrorOf } from '../api/error-info';
import { selectLastVerificationId } from '../machines/app-session';
import { AuthCard } from '../ui/dom/auth-card';
import { SchemaForm } from '../ui/dom/schema-form';
import { authFields, signupForm } from '../features/account';
import { useSessionForm } from '../machines/session.view';

export const Route = createFileRoute('/signup')({
  component: SignUp,
});

function SignUp() {
  const navigate = useNavigate();
  const { actor, isBusy, error, errorText, isSignedIn, t } = useSessionForm(null);
  const verificationId = useSelector(actor, selectLastVerificationId);
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);

  useEffect(() => {
    if (submitted && isSignedIn) {
      void navigate({
        to: '/verify-email',
        search: { verificationId: verificationId ?? undefined, email },
      });
    }
  }, [submitted, isSignedIn, verificationId, email, navigate]);

  return (
    <AuthCard
      appName={t('app.name')}
      title={t('signup.title')}
      footer={
        <span>
          {t('signup.haveAccount')} <Link to="/signin">{t('signup.signIn')}</Link>
        </span>
      }
    >
      <SchemaForm
        label={t('signup.title')}
        schema={signupForm}
        defaultValues={{ email: '', password: '', confirmPassword: '' }}
        fields={[authFields(t).email, ...authFields(t).newPassword(t('form.password'))]}
        submitLabel={t('signup.submit')}
        pendingLabel={t('signup.pending')}
        isPending={isBusy}
        error={submitted ? errorText : null}
        serverFieldErrors={{ password: submitted ? fieldErrorOf(error, 'password') : null }}
        onSubmit={(values) => {
          setSubmitted(true);
          setEmail(values.email);
          actor.send({ type: 'SIGNUP', email: values.email, password: values.password });
        }}
      />
    </AuthCard>
  );
}
