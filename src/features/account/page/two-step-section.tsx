import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { renderSVG } from 'uqr';
import { z } from 'zod/mini';
import type { TotpEnrolment } from '../../../../contract/account-schemas';
import {
  confirmTotpEnrolment,
  disableSecondFactor,
  myPasskeysQuery,
  mySecondFactorQuery,
  renewRecoveryCodes,
  startTotpEnrolment,
} from '../../../api/account';
import { describeError } from '../../../api/error-info';
import { refreshSession } from '../../../api/http';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { SchemaForm, type FieldSpec } from '../../../ui/dom/schema-form';
import { announce } from '../../../ui/dom/toasts';
import { codeForm } from '../forms';
import { proofBody, proofFields, proofRule, SendProofCode, useOwnerProof } from './owner-proof';

/**
 * Turning the factor off and new recovery codes: the password or a current code of the factor,
 * whichever is filled in (the code when both are).
 */
const factorProofForm = z.object({ password: z.string(), code: z.string() });
const factorProofOf = ({ password, code }: z.infer<typeof factorProofForm>) =>
  code.trim() ? { code: code.trim() } : password ? { password } : {};

type Step =
  | { kind: 'idle' }
  | { kind: 'scan'; enrolment: TotpEnrolment }
  | { kind: 'renew' }
  | { kind: 'codes'; codes: string[] };

/**
 * Two-step sign-in on the account page: set up an authenticator app (QR code, or the secret
 * typed in), confirm it with its first code, keep the recovery codes (shown once), turn it off.
 */
export function TwoStepSection() {
  const { t } = useTranslation();
  const status = useQuery(mySecondFactorQuery());
  // A passkey is the factor the role asks for too (docs/api.md "Two-step sign-in").
  const hasPasskey = Boolean(useQuery(myPasskeysQuery()).data?.length);
  const proof = useOwnerProof();
  const enrolForm = useMemo(() => z.object({ proof: proofRule(proof) }), [proof]);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const run = async (work: () => Promise<void>) => {
    setPending(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };
  const errorText = describeError(error, t);
  const goTo = (next: Step) => {
    setError(null);
    setStep(next);
  };
  const factorProofFields = [
    {
      name: 'password',
      label: t('account.currentPassword'),
      type: 'password',
      autoComplete: 'current-password',
    },
    {
      name: 'code',
      label: t('twoStep.orCode'),
      autoComplete: 'one-time-code',
      description: t('twoStep.orCodeHint'),
    },
  ] satisfies FieldSpec<'password' | 'code'>[];

  let body;
  if (step.kind === 'codes') {
    body = <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />;
  } else if (step.kind === 'renew') {
    body = (
      <>
        <p>{t('twoStep.newCodesIntro')}</p>
        <SchemaForm
          label={t('twoStep.newCodesTitle')}
          schema={factorProofForm}
          defaultValues={{ password: '', code: '' }}
          fields={factorProofFields}
          submitLabel={t('twoStep.makeCodes')}
          pendingLabel={t('twoStep.makingCodes')}
          isPending={pending}
          error={errorText}
          onSubmit={(values) =>
            run(async () => {
              const codes = await renewRecoveryCodes(factorProofOf(values));
              setStep({ kind: 'codes', codes });
              announce({ tone: 'success', title: t('twoStep.codesRenewed') });
            })
          }
        />
        <ActionButton variant="link" onPress={() => goTo({ kind: 'idle' })}>
          {t('account.cancel')}
        </ActionButton>
      </>
    );
  } else if (step.kind === 'scan') {
    const { secret, uri } = step.enrolment;
    body = (
      <>
        <ol className="two-step-steps">
          <li>{t('twoStep.scan')}</li>
          <li>{t('twoStep.enterCode')}</li>
        </ol>
        <div className="two-step-enrol">
          <img
            className="two-step-qr"
            src={`data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(uri, { border: 2 }))}`}
            alt={t('twoStep.qrAlt')}
            width={192}
            height={192}
          />
          <div>
            <p id="two-step-secret-label">{t('twoStep.manual')}</p>
            <code className="two-step-secret" aria-labelledby="two-step-secret-label">
              {secret.match(/.{1,4}/g)?.join(' ')}
            </code>
          </div>
        </div>
        <SchemaForm
          label={t('twoStep.confirmTitle')}
          schema={codeForm}
          defaultValues={{ code: '' }}
          fields={[
            {
              name: 'code',
              label: t('twoStep.code'),
              autoComplete: 'one-time-code',
              inputMode: 'numeric',
              description: t('twoStep.codeHint'),
            },
          ]}
          submitLabel={t('twoStep.confirm')}
          pendingLabel={t('twoStep.confirming')}
          isPending={pending}
          error={errorText}
          onSubmit={({ code }) =>
            run(async () => {
              const codes = await confirmTotpEnrolment(code.trim());
              // The next token carries the role's rules where the role needs the factor.
              await refreshSession({ force: true }).catch(() => undefined);
              setStep({ kind: 'codes', codes });
              announce({ tone: 'success', title: t('twoStep.enabled') });
            })
          }
        />
        <ActionButton variant="link" onPress={() => setStep({ kind: 'idle' })}>
          {t('account.cancel')}
        </ActionButton>
      </>
    );
  } else if (status.data?.enabled) {
    body = (
      <>
        <p>
          {t('twoStep.on', { date: new Date(status.data.enabledAt ?? '').toLocaleDateString() })}{' '}
          {t('twoStep.codesLeft', { count: status.data.recoveryCodesLeft })}
        </p>
        <div className="two-step-actions">
          <ActionButton onPress={() => goTo({ kind: 'renew' })}>
            {t('twoStep.newCodes')}
          </ActionButton>
        </div>
        <SchemaForm
          label={t('twoStep.disableTitle')}
          schema={factorProofForm}
          defaultValues={{ password: '', code: '' }}
          fields={factorProofFields}
          submitLabel={t('twoStep.disable')}
          pendingLabel={t('twoStep.disabling')}
          isPending={pending}
          error={errorText}
          onSubmit={(values) =>
            run(async () => {
              await disableSecondFactor(factorProofOf(values));
              await refreshSession({ force: true }).catch(() => undefined);
              announce({ tone: 'success', title: t('twoStep.disabled') });
            })
          }
        />
      </>
    );
  } else if (status.data) {
    body = (
      <>
        {status.data.required && !hasPasskey && <Alert tone="info">{t('twoStep.required')}</Alert>}
        <SchemaForm
          label={t('twoStep.setUpTitle')}
          schema={enrolForm}
          defaultValues={{ proof: '' }}
          fields={proofFields(t, proof)}
          submitLabel={t('twoStep.setUp')}
          pendingLabel={t('twoStep.settingUp')}
          isPending={pending}
          error={errorText}
          onSubmit={(values) =>
            run(async () => {
              const enrolment = await startTotpEnrolment(proofBody(proof, values.proof));
              setStep({ kind: 'scan', enrolment });
            })
          }
        >
          <SendProofCode proof={proof} />
        </SchemaForm>
      </>
    );
  }

  return (
    <section className="account-section" aria-labelledby="account-two-step">
      <h2 id="account-two-step">{t('twoStep.title')}</h2>
      <p>{t('twoStep.intro')}</p>
      {status.isError && <Alert tone="error">{describeError(status.error, t)}</Alert>}
      {body}
    </section>
  );
}

/** The recovery codes, once: copy, download, then done. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'avatar-studio-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <>
      <Alert tone="success">{t('twoStep.saveCodes')}</Alert>
      <ul className="two-step-codes" aria-label={t('twoStep.codesLabel')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="two-step-actions">
        <ActionButton
          onPress={() =>
            void navigator.clipboard
              .writeText(text)
              .then(() => announce({ tone: 'success', title: t('twoStep.copied') }))
          }
        >
          {t('twoStep.copy')}
        </ActionButton>
        <ActionButton onPress={download}>{t('twoStep.download')}</ActionButton>
        <ActionButton variant="primary" onPress={onDone}>
          {t('twoStep.done')}
        </ActionButton>
      </div>
    </>
  );
}
