/**
 * Fresh proof of the owner in the account page's forms (docs/api.md "Your account"): the
 * current password of an account that has one; of one that signs in by codes, a code mailed to
 * its address, which the form offers to send. A borrowed session has neither. Each form names
 * the field `proof`.
 */
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import type { ProofMethod } from '../../../../contract/account-schemas';
import { myProofQuery, requestProofCode } from '../../../api/account';
import { describeError } from '../../../api/error-info';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import type { FieldSpec } from '../../../ui/dom/schema-form';

/** Until the server says otherwise (or if it cannot), the password is asked for, as before. */
const ASSUMED: ProofMethod = { method: 'password', email: null };

/** How the signed-in account confirms a change, and where a code would go. */
export function useOwnerProof(): ProofMethod {
  return useQuery(myProofQuery()).data ?? ASSUMED;
}

/** The `proof` field of a form, if the account has one to give: its password, or the code. */
export function proofFields(
  t: TFunction,
  { method }: ProofMethod,
  passwordLabel = t('account.currentPassword'),
): FieldSpec<'proof'>[] {
  if (method === 'none') return [];
  if (method === 'password') {
    return [
      { name: 'proof', label: passwordLabel, type: 'password', autoComplete: 'current-password' },
    ];
  }
  return [
    {
      name: 'proof',
      label: t('proof.code'),
      autoComplete: 'one-time-code',
      inputMode: 'numeric',
      description: t('proof.codeHint'),
    },
  ];
}

const required = z.minLength(1, 'form.required');

/** The rule of the `proof` field: a password typed in, or six digits. */
export function proofRule({ method }: ProofMethod) {
  if (method === 'code') {
    return z.string().check(z.trim(), required, z.regex(/^\d{6}$/, 'form.invalidCode'));
  }
  return method === 'password' ? z.string().check(required) : z.string();
}

/** What a request's body carries of the `proof` field. */
export function proofBody({ method }: ProofMethod, value: string) {
  if (method === 'code') return { code: value.trim() };
  return method === 'password' && value ? { password: value } : {};
}

/**
 * "Send a code to <address>", beside the code field of an account without a password: mails the
 * code and says where it went (again on request; the server re-sends past its limit).
 */
export function SendProofCode({ proof }: { proof: ProofMethod }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (proof.method !== 'code') return null;
  const send = () => {
    setPending(true);
    setError(null);
    requestProofCode()
      .then(() => setSent(true))
      .catch(setError)
      .finally(() => setPending(false));
  };
  return (
    <div className="proof-send">
      <ActionButton onPress={send} isPending={pending} pendingLabel={t('account.sendingCode')}>
        {sent ? t('proof.sendAgain') : t('proof.send', { email: proof.email })}
      </ActionButton>
      <p role="status">{sent && !pending ? t('proof.sent', { email: proof.email }) : null}</p>
      {error !== null && <Alert tone="error">{describeError(error, t)}</Alert>}
    </div>
  );
}
