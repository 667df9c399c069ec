import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { mySessionsQuery } from '../../api/account';
import { queryClient } from '../../api/query';
import { selectIsAnonymous } from '../../machines/app-session';
import { useSessionActor } from '../../machines/session.view';
import { useDocumentTitle } from '../../ui/dom/use-document-title';
import {
  DeleteSection,
  EmailSection,
  PasswordSection,
  UpgradeSection,
} from './-account/account-forms';
import { SessionsSection } from './-account/sessions-section';
import './-account/account.css';

export const Route = createFileRoute('/_app/account')({
  // Started, not awaited: the sessions show their own loading state.
  loader: () => void queryClient.prefetchQuery(mySessionsQuery()),
  component: AccountScreen,
});

/** Every signed-in user's own account: address, password, sessions, deletion; a guest's upgrade. */
function AccountScreen() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const isGuest = useSelector(actor, selectIsAnonymous);
  useDocumentTitle(t('account.title'));
  return (
    <div className="account-page">
      <h1>{t('account.title')}</h1>
      {isGuest ? (
        <UpgradeSection />
      ) : (
        <>
          <EmailSection />
          <PasswordSection />
        </>
      )}
      <SessionsSection />
      <DeleteSection />
    </div>
  );
}
