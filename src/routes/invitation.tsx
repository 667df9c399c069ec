import { useMutation, useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import { waitFor } from 'xstate';
import { z } from 'zod/mini';
import { describeError, fieldErrorOf, isNotFoundError } from '../api/error-info';
import { acceptInvitation, invitationLinkQuery } from '../api/invitations';
import { queryClient } from '../api/query';
import { selectIsLoggedIn, selectSecondFactor, selectUser } from '../machines/app-session';
import { useSessionActor } from '../machines/session.view';
import { Alert } from '../ui/dom/alert';
import { AuthCard } from '../ui/dom/auth-card';
import { SchemaForm } from '../ui/dom/schema-form';
import { Spinner } from '../ui/dom/spinner';
import { authFields, newPasswordForm, SecondStep } from '../features/account';
import { lenient } from './-account/search-params';

/** Invitation links carry 32 random bytes, base64url (docs/api.md "Invitations"). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const Route = createFileRoute('/invitation')({
  validateSearch: z.object({ token: lenient(z.string().check(z.maxLength(200))) }),
  component: AcceptInvitation,
});

/**
 * The page an invitation mail links to: the invitee chooses a password and is signed in, after
 * the sign-in page's second step when the address's account has two-step sign-in on.
 */
function AcceptInvitation() {
  const { token = '' } = Route.useSearch();
  const { t } = useTranslation();
  const actor = useSessionActor();
  const navigate = useNavigate();
  // The account screens load before the signed-in area's QueryClientProvider: name the client.
  const wellFormed = TOKEN.test(token);
  const link = useQuery({ ...invitationLinkQuery(token), enabled: wellFormed }, queryClient);
  // Accepted into an account with a second factor: its code is asked for here, as at sign-in.
  const [secondStep, setSecondStep] = useState(false);
  const challenge = useSelector(actor, selectSecondFactor);
  const isLoggedIn = useSelector(actor, selectIsLoggedIn);
  const accept = useMutation(
    {
      mutationFn: (password: string) => acceptInvitation({ token, password }),
      onSuccess: async (result) => {
        // Signed in as someone else: that session ends (on the server too, and its cached
        // reads go) before the invitee's starts, so the tab never holds two identities.
        if (selectIsLoggedIn(actor.getSnapshot())) {
          actor.send({ type: 'LOGOUT' });
          await waitFor(actor, (snapshot) => !selectIsLoggedIn(snapshot));
        }
        actor.send({ type: 'SESSION_STARTED', result });
        if ('challenge' in result) setSecondStep(true);
        else await navigate({ to: '/' });
      },
    },
    queryClient,
  );
  const invitation = link.data;
  useEffect(() => {
    if (!secondStep || challenge) return;
    // Signed in by the code; or the step was left or ran out: the link is spent, the password
    // is set, so signing in goes on at the sign-in page.
    void navigate(
      isLoggedIn ? { to: '/' } : { to: '/signin', search: { email: invitation?.email } },
    );
  }, [secondStep, challenge, isLoggedIn, navigate, invitation?.email]);
  const signedInAs = useSelector(actor, (snapshot) =>
    selectIsLoggedIn(snapshot) ? (selectUser(snapshot).email ?? t('invitation.guest')) : null,
  );
  // Used, revoked, expired or unknown links all answer 404: one message for them all.
  const invalid = !wellFormed || (link.isError && isNotFoundError(link.error));
  const failed = link.isError && !invalid;

  if (secondStep && challenge) {
    return (
      <AuthCard appName={t('app.name')} title={t('secondStep.title')}>
        <Alert tone="success">{t('invitation.secondStep')}</Alert>
        <SecondStep />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      appName={t('app.name')}
      title={t('invitation.title')}
      intro={
        invitation &&
        t('invitation.intro', {
          app: t('app.name'),
          role: t(`invitation.roles.${invitation.role}`),
          email: invitation.email,
        })
      }
      footer={<Link to="/signin">{t('invitation.signIn')}</Link>}
    >
      {invalid && (
        <Alert tone="error">
          {t('invitation.invalid')} {t('invitation.invalidHint')}
        </Alert>
      )}
      {failed && <Alert tone="error">{describeError(link.error, t)}</Alert>}
      {!invalid && !failed && !invitation && (
        <p role="status">
          <Spinner /> {t('invitation.checking')}
        </p>
      )}
      {invitation && signedInAs && (
        <Alert tone="info">{t('invitation.signedIn', { email: signedInAs })}</Alert>
      )}
      {invitation && (
        <SchemaForm
          label={t('invitation.title')}
          schema={newPasswordForm}
          defaultValues={{ password: '', confirmPassword: '' }}
          fields={authFields(t).newPassword(t('form.password'))}
          submitLabel={t('invitation.submit')}
          pendingLabel={t('invitation.pending')}
          isPending={accept.isPending}
          error={describeError(accept.error, t)}
          serverFieldErrors={{ password: fieldErrorOf(accept.error, 'password') }}
          onSubmit={(values) =>
            accept.mutateAsync(values.password).then(
              () => true,
              () => false,
            )
          }
        />
      )}
    </AuthCard>
  );
}
