import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { selectIsAnonymous } from '../../../machines/app-session';
import { useSessionActor } from '../../../machines/session.view';
import { useDocumentTitle } from '../../../ui/dom/use-document-title';
import { DeleteSection, EmailSection, PasswordSection, UpgradeSection } from './account-forms';
import { PasskeysSection } from './passkeys-section';
import { SessionsSection } from './sessions-section';
import { TwoStepSection } from './two-step-section';
import '../../../ui/dom/page-sections.css';
import './account.css';

/**
 * Every signed-in user's own account: address, password, two-step sign-in, passkeys, sessions,
 * deletion; a guest's upgrade.
 */
export function AccountPage() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const isGuest = useSelector(actor, selectIsAnonymous);
  useDocumentTitle(t('account.title'));
  return (
    <div className="page-sections narrow">
      <h1>{t('account.title')}</h1>
      {isGuest ? (
        <UpgradeSection />
      ) : (
        <>
          <EmailSection />
          <PasswordSection />
          <TwoStepSection />
          <PasskeysSection />
        </>
      )}
      <SessionsSection />
      <DeleteSection />
    </div>
  );
}
