import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-info';
import { selectError, selectIsBusy } from '../../machines/app-session';
import { useSessionActor } from '../../machines/session.view';
import { ActionButton } from '../../ui/dom/action-button';
import { SchemaForm } from '../../ui/dom/schema-form';
import { codeForm, recoveryCodeForm } from './forms';
import './second-step.css';

/**
 * The second step of a sign-in (password or mailed code were right; the account has an
 * authenticator): a code of the authenticator app, or one of the recovery codes.
 */
export function SecondStepForm() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const isBusy = useSelector(actor, selectIsBusy);
  const error = useSelector(actor, selectError);
  const [recovery, setRecovery] = useState(false);
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
        isPending={isBusy}
        error={describeError(error, t)}
        onSubmit={({ code }) => actor.send({ type: 'SECOND_FACTOR', code: code.trim() })}
      />
      <div className="second-step-actions">
        <ActionButton variant="link" onPress={() => setRecovery(!recovery)}>
          {t(recovery ? 'secondStep.useApp' : 'secondStep.useRecovery')}
        </ActionButton>
        <ActionButton variant="link" onPress={() => actor.send({ type: 'CANCEL_SECOND_FACTOR' })}>
          {t('secondStep.cancel')}
        </ActionButton>
      </div>
    </>
  );
}
