import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { invitedRoleSchema, type Invitation } from '../../../../contract/account-schemas';
import { describeError } from '../../../api/error-info';
import {
  invitationsQuery,
  invite,
  resendInvitation,
  revokeInvitation,
} from '../../../api/invitations';
import { ActionButton } from '../../../ui/dom/action-button';
import { Alert } from '../../../ui/dom/alert';
import { SelectField } from '../../../ui/dom/form-controls';
import { badgeCell, dateCell } from '../../../ui/dom/list/cells';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { TextField } from '../../../ui/dom/text-field';
import { announce } from '../../../ui/dom/toasts';
import { useDocumentTitle } from '../../../ui/dom/use-document-title';
import { emailForm } from '../../account';
import '../../../ui/dom/page-sections.css';
import './invitations.css';

/** Pending invitations with resend and revoke, and the Invite dialog (admins only). */
export function InvitationsScreen() {
  const { t } = useTranslation();
  const invitations = useQuery(invitationsQuery());
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useDocumentTitle(t('invitations.title'));

  const run = async (key: string, work: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await work();
      announce({ tone: 'success', title: done });
    } catch (error) {
      announce({ tone: 'error', title: describeError(error, t) ?? '' });
    } finally {
      setBusy(null);
    }
  };

  const rows = invitations.data ?? [];
  return (
    <div className="page-sections">
      <div className="page-toolbar">
        <h1>{t('invitations.title')}</h1>
        <ActionButton variant="primary" onPress={() => setInviting(true)}>
          {t('invitations.invite')}
        </ActionButton>
      </div>
      <p>{t('invitations.intro')}</p>
      {invitations.isError && (
        <Alert tone="error">
          {t('invitations.failed')} {describeError(invitations.error, t)}
        </Alert>
      )}
      {invitations.isSuccess && rows.length === 0 && <p>{t('invitations.empty')}</p>}
      {rows.length > 0 && (
        <div className="data-table-container">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('invitations.email')}</th>
                <th scope="col">{t('invitations.role')}</th>
                <th scope="col">{t('invitations.sentAt')}</th>
                <th scope="col">{t('invitations.expiresAt')}</th>
                <th scope="col">{t('invitations.status')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('invitations.resend')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <th scope="row">{row.email}</th>
                  <td>{t(`invitations.roles.${row.role}`)}</td>
                  <td>{dateCell(row.sentAt)}</td>
                  <td>{dateCell(row.expiresAt)}</td>
                  <td>
                    {badgeCell(
                      t(`invitations.${row.status}`),
                      row.status === 'pending' ? undefined : 'danger',
                    )}
                  </td>
                  <td>
                    <div className="invitation-actions">
                      <ActionButton
                        isPending={busy === row.id}
                        pendingLabel={t('invitations.resend')}
                        onPress={() =>
                          void run(
                            row.id,
                            () => resendInvitation(row.id),
                            t('invitations.resent', { email: row.email }),
                          )
                        }
                      >
                        <span aria-hidden="true">{t('invitations.resend')}</span>
                        <span className="visually-hidden">
                          {t('invitations.resendLabel', { email: row.email })}
                        </span>
                      </ActionButton>
                      <ActionButton variant="danger" onPress={() => setRevoking(row)}>
                        <span aria-hidden="true">{t('invitations.revoke')}</span>
                        <span className="visually-hidden">
                          {t('invitations.revokeLabel', { email: row.email })}
                        </span>
                      </ActionButton>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <InviteDialog isOpen={inviting} onClose={() => setInviting(false)} />
      <FormDialog
        isOpen={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('invitations.revokeTitle', { email: revoking?.email })}
        submitLabel={t('invitations.revoke')}
        cancelLabel={t('invitations.cancel')}
        tone="danger"
        onSubmit={() => {
          if (!revoking) return false;
          const { id, email } = revoking;
          void run(id, () => revokeInvitation(id), t('invitations.revoked', { email }));
          return true;
        }}
      >
        <p>{t('invitations.revokeBody')}</p>
      </FormDialog>
    </div>
  );
}

/** The Invite dialog: an address and a role; the server's refusal is shown in a toast. */
function InviteDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const emailError = emailForm.safeParse({ email }).error?.issues[0]?.message;
  const roleChoice = invitedRoleSchema.safeParse(role);
  const close = () => {
    setEmail('');
    setRole('');
    setSubmitted(false);
    onClose();
  };
  return (
    <FormDialog
      isOpen={isOpen}
      onClose={close}
      title={t('invitations.inviteTitle')}
      submitLabel={t('invitations.send')}
      cancelLabel={t('invitations.cancel')}
      onSubmit={() => {
        setSubmitted(true);
        if (emailError || !roleChoice.success) return false;
        const address = email.trim();
        void invite({ email: address, role: roleChoice.data }).then(
          () => announce({ tone: 'success', title: t('invitations.invited', { email: address }) }),
          (error: unknown) => announce({ tone: 'error', title: describeError(error, t) ?? '' }),
        );
        return true;
      }}
    >
      <TextField
        name="email"
        label={t('invitations.email')}
        type="email"
        autoComplete="off"
        value={email}
        onChange={setEmail}
        error={submitted && emailError ? t(emailError) : null}
      />
      <SelectField
        name="role"
        label={t('invitations.role')}
        placeholder={t('invitations.chooseRole')}
        value={role}
        onChange={setRole}
        options={invitedRoleSchema.options.map((value) => ({
          value,
          label: t(`invitations.roles.${value}`),
        }))}
        error={submitted && !roleChoice.success ? t('form.required') : null}
      />
    </FormDialog>
  );
}
