import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  invitationSchema,
  invitedRoleSchema,
  type Invitation,
} from '../../../../contract/account-schemas';
import {
  INVITATIONS_ENDPOINT,
  invite,
  resendInvitation,
  revokeInvitation,
} from '../../../api/invitations';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { SelectField } from '../../../ui/dom/form-controls';
import { searchFilter } from '../../../ui/dom/list/asset-filters';
import { badgeCell, dateCell } from '../../../ui/dom/list/cells';
import { personIcon } from '../../../ui/dom/list/filter-icons';
import { FormDialog, type ActionMenuItem } from '../../../ui/dom/list/row-menu';
import { TextField } from '../../../ui/dom/text-field';
import { emailForm } from '../../account';
import { invitationsList } from './invitations-list';

/** Pending invitations, paged like the users list, with resend and revoke, and Invite (admins). */
export function InvitationsScreen() {
  return <ListScreen config={invitationsConfig} />;
}

const invitationsConfig = (t: TFunction): ListScreenConfig<Invitation> => ({
  title: t('invitations.title'),
  requires: ['manage', 'User'],
  endpoint: INVITATIONS_ENDPOINT,
  rowSchema: invitationSchema,
  ...invitationsList,
  rowLabel: (row) => row.email,
  filters: [
    searchFilter(t),
    {
      field: 'role',
      type: 'multi-select',
      label: t('invitations.role'),
      icon: personIcon,
      options: invitedRoleSchema.options.map((role) => ({
        value: role,
        label: t(`invitations.roles.${role}`),
      })),
    },
  ],
  columns: [
    { field: 'email', headerName: t('invitations.email'), sortable: true },
    {
      field: 'role',
      headerName: t('invitations.role'),
      sortable: true,
      render: (row) => t(`invitations.roles.${row.role}`),
    },
    {
      field: 'sentAt',
      headerName: t('invitations.sentAt'),
      sortable: true,
      render: (row) => dateCell(row.sentAt),
    },
    {
      field: 'expiresAt',
      headerName: t('invitations.expiresAt'),
      sortable: true,
      render: (row) => dateCell(row.expiresAt),
    },
    {
      field: 'status',
      headerName: t('invitations.status'),
      render: (row) =>
        badgeCell(t(`invitations.${row.status}`), row.status === 'pending' ? undefined : 'danger'),
    },
  ],
  toolbar: (list) => <InviteButton list={list} />,
  rowActions: (row, list) => [resendAction(t, row, list), revokeAction(t, row, list)],
});

function resendAction(
  t: TFunction,
  row: Invitation,
  list: ListControls,
): ActionMenuItem<Invitation> {
  return {
    title: t('invitations.resend'),
    onAction: () =>
      void list.run(() => resendInvitation(row.id), {
        done: t('invitations.resent', { email: row.email }),
      }),
  };
}

function revokeAction(
  t: TFunction,
  row: Invitation,
  list: ListControls,
): ActionMenuItem<Invitation> {
  return {
    title: t('invitations.revoke'),
    color: 'danger',
    confirm: {
      title: t('invitations.revokeTitle', { email: row.email }),
      body: t('invitations.revokeBody'),
      confirmLabel: t('invitations.revoke'),
    },
    onAction: () =>
      void list.run(() => revokeInvitation(row.id), {
        done: t('invitations.revoked', { email: row.email }),
      }),
  };
}

/** The Invite button and its dialog. */
function InviteButton({ list }: { list: ListControls }) {
  const { t } = useTranslation();
  const [inviting, setInviting] = useState(false);
  return (
    <>
      <ActionButton variant="primary" onPress={() => setInviting(true)}>
        {t('invitations.invite')}
      </ActionButton>
      <InviteDialog isOpen={inviting} onClose={() => setInviting(false)} list={list} />
    </>
  );
}

/** The Invite dialog: an address and a role; the server's refusal is shown in a toast. */
function InviteDialog({
  isOpen,
  onClose,
  list,
}: {
  isOpen: boolean;
  onClose: () => void;
  list: ListControls;
}) {
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
        void list.run(() => invite({ email: address, role: roleChoice.data }), {
          done: t('invitations.invited', { email: address }),
        });
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
