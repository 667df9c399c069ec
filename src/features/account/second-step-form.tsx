import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-info';
import { selectError, selectIsBusy, selectSecondFactor } from '../../machines/app-session';
import { useSessionActor } from '../../machines/session.view';
import { ActionButton } from '../../ui/dom/action-button';
import { Alert } from '../../ui/dom/alert';
import { SchemaForm } from '../../ui/dom/schema-form';
import { codeForm, recoveryCodeForm } from './forms';
import './second-step.css';

/**
 * The second step of a sign-in (password or mailed code were right; the account has a second
 * factor): a code of the authenticator app, one of the recovery codes, or one of the account's
 * passkeys. An account without an authenticator app answers with a passkey only.
 */
export function SecondStepForm() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const isBusy = useSelector(actor, selectIsBusy);
  const error = useSelector(actor, selectError);
  const challenge = useSelector(actor, selectSecondFactor);
  const [recovery, setRecovery] = useState(false);
  // Where the last answer came from: its error shows there.
  const [via, setVia] = useState<'code' | 'passkey'>('code');
  const passkeyOnly = challenge?.secondFactor === 'passkey';
  const canUsePasskey = Boolean(challenge?.passkey) && browserSupportsWebAuthn();
  const errorText = describeError(error, t);

  const passkey = canUsePasskey && (
    <>
      {via === 'passkey' && errorText && !isBusy && <Alert tone="error">{errorText}</Alert>}
      <ActionButton
        wide
        variant={passkeyOnly ? 'primary' : 'secondary'}
        isPending={isBusy && via === 'passkey'}
        pendingLabel={t('signin.passkeyPending')}
        onPress={() => {
          setVia('passkey');
          actor.send({ type: 'SECOND_FACTOR_PASSKEY' });
        }}
      >
        {t('secondStep.usePasskey')}
      </ActionButton>
    </>
  );
  const cancel = (
    <ActionButton variant="link" onPress={() => actor.send({ type: 'CANCEL_SECOND_FACTOR' })}>
      {t('secondStep.cancel')}
    </ActionButton>
  );

  if (passkeyOnly) {
    return (
      <>
        <p>{t('secondStep.introPasskey')}</p>
        {canUsePasskey ? passkey : <Alert tone="info">{t('secondStep.noPasskeys')}</Alert>}
        <div className="second-step-actions">{cancel}</div>
      </>
    );
  }
  return (
    <>
      <p id="second-step-intro">{t(recovery ? 'secondStep.introRecovery' : 'secondStep.intro')}</p>
      <SchemaForm
        // A new form for the other kind of code: its own rule, an empty field, the focus in it.
        key={recovery ? 'recovery' : 'app'}
        label={t('secondStep.title')}
        schema={recovery ? recoveryCodeForm : codeForm}
        defaultValues={{ code: '' }}
        fields={[
          recovery
            ? {
                name: 'code',
                label: t('secondStep.recoveryCode'),
                autoComplete: 'off',
                description: t('secondStep.recoveryHint'),
                autoFocus: true,
              }
            : {
                name: 'code',
                label: t('secondStep.code'),
                autoComplete: 'one-time-code',
                inputMode: 'numeric',
                autoFocus: true,
              },
        ]}
        submitLabel={t('secondStep.submit')}
        pendingLabel={t('secondStep.pending')}
        isPending={isBusy && via === 'code'}
        error={via === 'code' ? errorText : null}
        onSubmit={({ code }) => {
          setVia('code');
          actor.send({ type: 'SECOND_FACTOR', code: code.trim() });
        }}
      />
      {passkey && (
        <>
          <div className="divider">{t('signin.or')}</div>
          {passkey}
        </>
      )}
      <div className="second-step-actions">
        <ActionButton variant="link" onPress={() => setRecovery(!recovery)}>
          {t(recovery ? 'secondStep.useApp' : 'secondStep.useRecovery')}
        </ActionButton>
        {cancel}
      </div>
    </>
  );
}
