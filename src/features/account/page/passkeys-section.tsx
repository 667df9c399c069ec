import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import type { Passkey } from '../../../../contract/passkey-schemas';
import {
  addPasskey,
  createPasskey,
  myPasskeysQuery,
  removePasskey,
  renamePasskey,
  type NewPasskey,
} from '../../../api/account';
import { describeError, errorInfo } from '../../../api/error-info';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { dateCell } from '../../../ui/dom/list/cells';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { SchemaForm } from '../../../ui/dom/schema-form';
import { TextField } from '../../../ui/dom/text-field';
import { announce } from '../../../ui/dom/toasts';
import { describeUserAgent } from '../../../ui/dom/user-agent';
import { proofErrorOf, useRequest } from './account-forms';
import {
  proofBody,
  proofFields,
  ProofDialog,
  proofRule,
  SendProofCode,
  useOwnerProof,
} from './owner-proof';
import { browserOn } from './sessions-section';

/** A passkey's name, as the server takes it (contract/passkey-schemas.ts), with i18n keys. */
const nameRule = z.string().check(
  z.trim(),
  z.minLength(1, 'form.required'),
  z.maxLength(100, 'passkeys.nameTooLong'),
  z.refine((name) => !/\p{Cc}/u.test(name), 'passkeys.nameControl'),
);
const nameForm = z.object({ name: nameRule });

/** A failure in words: a passkey this device already holds has its own sentence. */
const passkeyError = (error: unknown, t: TFunction) =>
  error !== null && errorInfo(error).code === 'PASSKEY_EXISTS'
    ? t('passkeys.exists')
    : describeError(error, t);

/**
 * Passkeys on the account page (docs/api.md "Passkeys"): the list (name, added, last used,
 * synced), adding one (fresh proof, the browser's prompt, a name), renaming and removing one.
 * A browser without WebAuthn gets the reason instead.
 */
export function PasskeysSection() {
  const { t } = useTranslation();
  // Read once: a browser does not gain or lose WebAuthn while the page is open.
  const [supported] = useState(browserSupportsWebAuthn);
  return (
    <section className="account-section" aria-labelledby="account-passkeys">
      <h2 id="account-passkeys">{t('passkeys.title')}</h2>
      {supported ? <Passkeys /> : <p>{t('passkeys.unsupported')}</p>}
    </section>
  );
}

function Passkeys() {
  const { t } = useTranslation();
  const list = useQuery(myPasskeysQuery());
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  return (
    <>
      <p>{t('passkeys.intro')}</p>
      {list.isError && <Alert tone="error">{describeError(list.error, t)}</Alert>}
      {list.data?.length === 0 && <p>{t('passkeys.none')}</p>}
      {Boolean(list.data?.length) && (
        <ul className="passkey-list" aria-label={t('passkeys.listLabel')}>
          {list.data?.map((passkey) => (
            <li key={passkey.id} className="passkey-item">
              <div className="passkey-info">
                <span>
                  <strong className="passkey-name">{passkey.name}</strong>
                  {passkey.backedUp && (
                    <>
                      {' '}
                      <span className="badge">{t('passkeys.synced')}</span>
                    </>
                  )}
                </span>
                <span className="passkey-dates">
                  <span>
                    {t('passkeys.added')} {dateCell(passkey.createdAt)}
                  </span>
                  <span>
                    {passkey.lastUsedAt ? (
                      <>
                        {t('account.lastUsed')} {dateCell(passkey.lastUsedAt)}
                      </>
                    ) : (
                      t('passkeys.neverUsed')
                    )}
                  </span>
                </span>
              </div>
              <div className="passkey-actions">
                <ActionButton onPress={() => setRenaming(passkey)}>
                  <span aria-hidden="true">{t('passkeys.rename')}</span>
                  <span className="visually-hidden">
                    {t('passkeys.renameLabel', { name: passkey.name })}
                  </span>
                </ActionButton>
                <ActionButton onPress={() => setRemoving(passkey)}>
                  <span aria-hidden="true">{t('passkeys.remove')}</span>
                  <span className="visually-hidden">
                    {t('passkeys.removeLabel', { name: passkey.name })}
                  </span>
                </ActionButton>
              </div>
            </li>
          ))}
        </ul>
      )}
      <AddPasskey />
      {renaming && <RenameDialog passkey={renaming} onClose={() => setRenaming(null)} />}
      {removing && <RemoveDialog passkey={removing} onClose={() => setRemoving(null)} />}
    </>
  );
}

type AddStep = { kind: 'idle' } | { kind: 'proof' } | { kind: 'name'; passkey: NewPasskey };

/**
 * Adding a passkey: fresh proof opens the ceremony and the browser makes the passkey; it is
 * saved once named (after the browser and system it was made in, which the owner may change).
 */
function AddPasskey() {
  const { t } = useTranslation();
  const proof = useOwnerProof();
  const proofForm = useMemo(() => z.object({ proof: proofRule(proof) }), [proof]);
  const [step, setStep] = useState<AddStep>({ kind: 'idle' });
  const request = useRequest();
  const error = passkeyError(request.error, t);
  const defaultName = useMemo(() => {
    const agent = describeUserAgent(navigator.userAgent);
    return agent ? browserOn(t)(agent.browser, agent.system) : t('passkeys.defaultName');
  }, [t]);
  const goTo = (next: AddStep) => {
    request.clear();
    setStep(next);
  };
  const cancel = (
    <ActionButton variant="link" onPress={() => goTo({ kind: 'idle' })}>
      {t('account.cancel')}
    </ActionButton>
  );

  if (step.kind === 'idle') {
    return <ActionButton onPress={() => goTo({ kind: 'proof' })}>{t('passkeys.add')}</ActionButton>;
  }
  if (step.kind === 'proof') {
    return (
      <>
        <p>{t('passkeys.addIntro')}</p>
        <SchemaForm
          key="proof"
          label={t('passkeys.add')}
          schema={proofForm}
          defaultValues={{ proof: '' }}
          fields={proofFields(t, proof)}
          submitLabel={t('passkeys.continue')}
          pendingLabel={t('passkeys.waiting')}
          error={error}
          serverFieldErrors={{ proof: proofErrorOf(request.error) }}
          onSubmit={(values) =>
            request.run(async () => {
              const passkey = await createPasskey(proofBody(proof, values.proof));
              setStep({ kind: 'name', passkey });
            })
          }
        >
          <SendProofCode proof={proof} />
        </SchemaForm>
        {cancel}
      </>
    );
  }
  return (
    <>
      <p>{t('passkeys.nameIntro')}</p>
      <SchemaForm
        // Its own form, not the proof's with its values: the name starts as the browser's.
        key="name"
        label={t('passkeys.nameTitle')}
        schema={nameForm}
        defaultValues={{ name: defaultName }}
        fields={[{ name: 'name', label: t('passkeys.name'), autoFocus: true }]}
        submitLabel={t('passkeys.save')}
        pendingLabel={t('passkeys.saving')}
        error={error}
        onSubmit={({ name }) =>
          request.run(async () => {
            const saved = await addPasskey({ ...step.passkey, name: name.trim() });
            setStep({ kind: 'idle' });
            announce({ tone: 'success', title: t('passkeys.saved', { name: saved.name }) });
          })
        }
      />
      {cancel}
    </>
  );
}

/** Runs one request at a time for a dialog that stays open while it runs. */
function useDialogRequest(onDone: () => void) {
  const request = useRequest();
  const [busy, setBusy] = useState(false);
  const run = (work: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    void request.run(work).then((done) => {
      setBusy(false);
      if (done) onDone();
    });
  };
  return { error: request.error, run };
}

function RenameDialog({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(passkey.name);
  const [invalid, setInvalid] = useState<string | null>(null);
  const request = useDialogRequest(onClose);
  return (
    <FormDialog
      isOpen
      onClose={onClose}
      title={t('passkeys.renameTitle')}
      submitLabel={t('passkeys.rename')}
      cancelLabel={t('account.cancel')}
      onSubmit={() => {
        const check = z.safeParse(nameRule, name);
        if (!check.success) {
          setInvalid(check.error.issues[0]?.message ?? 'form.required');
          return false;
        }
        if (check.data === passkey.name) return undefined;
        request.run(async () => {
          const renamed = await renamePasskey(passkey.id, check.data);
          announce({ tone: 'success', title: t('passkeys.renamed', { name: renamed.name }) });
        });
        return false;
      }}
    >
      <TextField
        name="name"
        label={t('passkeys.name')}
        value={name}
        onChange={(next) => {
          setName(next);
          setInvalid(null);
        }}
        autoFocus
        error={invalid && t(invalid)}
      />
      {request.error !== null && <Alert tone="error">{describeError(request.error, t)}</Alert>}
    </FormDialog>
  );
}

/** Removing a passkey decides who can sign in: asked first, with fresh proof. */
function RemoveDialog({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const { t } = useTranslation();
  const request = useDialogRequest(onClose);
  return (
    <ProofDialog
      isOpen
      onClose={onClose}
      title={t('passkeys.removeTitle', { name: passkey.name })}
      submitLabel={t('passkeys.removeConfirm')}
      error={describeError(request.error, t)}
      onConfirm={(proof) => {
        request.run(async () => {
          await removePasskey(passkey.id, proof);
          announce({ tone: 'success', title: t('passkeys.removed', { name: passkey.name }) });
        });
        return false;
      }}
    >
      <p>{t('passkeys.removeIntro')}</p>
    </ProofDialog>
  );
}
