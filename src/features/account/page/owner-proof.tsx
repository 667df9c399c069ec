/**
 * Fresh proof of the owner in the account page's forms (docs/api.md "Your account"): the
 * current password of an account that has one; of one that signs in by codes, a code mailed to
 * its address, which the form offers to send. A borrowed session has neither. Each form names
 * the field `proof`.
 */
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import type { ProofMethod } from '../../../../contract/account-schemas';
import { myProofQuery, requestProofCode } from '../../../api/account';
import { describeError } from '../../../api/error-info';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import type { FieldSpec } from '../../../ui/dom/schema-form';
import { TextField } from '../../../ui/dom/text-field';

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

interface ProofDialogProps {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  /** What the change does, above the field. */
  children: ReactNode;
  /** The password field's label and hint, where the account has a password. */
  passwordLabel?: string;
  passwordHint?: string;
  /** The request's failure, said inside the dialog (for a dialog that stays open meanwhile). */
  error?: string | null;
  /**
   * Gets what a request's body carries of the proof once the field is valid; answer `false` to
   * keep the dialog open (while the request runs).
   */
  onConfirm: (proof: ReturnType<typeof proofBody>) => unknown;
}

/**
 * A change that decides who can sign in, asked first: what it does, the `proof` field (the
 * password, or a mailed code with "Send a code"), Cancel first and a red confirm button.
 */
export function ProofDialog(props: ProofDialogProps) {
  const { t } = useTranslation();
  const proof = useOwnerProof();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const field = proofFields(t, proof, props.passwordLabel)[0];
  const submit = () => {
    const check = z.safeParse(proofRule(proof), value);
    if (!check.success) {
      setInvalid(check.error.issues[0]?.message ?? 'form.required');
      return false;
    }
    return props.onConfirm(proofBody(proof, value));
  };
  return (
    <FormDialog
      isOpen={props.isOpen}
      onClose={() => {
        props.onClose();
        setValue('');
        setInvalid(null);
      }}
      title={props.title}
      submitLabel={props.submitLabel}
      cancelLabel={t('account.cancel')}
      tone="danger"
      onSubmit={submit}
    >
      {props.children}
      {field && (
        <TextField
          {...field}
          description={field.description ?? props.passwordHint}
          value={value}
          onChange={(next) => {
            setValue(next);
            setInvalid(null);
          }}
          error={invalid && t(invalid)}
        />
      )}
      <SendProofCode proof={proof} />
      {props.error && <Alert tone="error">{props.error}</Alert>}
    </FormDialog>
  );
}
