import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { Link } from '@tanstack/react-router';
import type { Can } from '../../../../contract/ability';
import type { ListDefinition } from '../../../api/list-url';
import {
  roleSchema,
  userRowSchema,
  userStatusSchema,
  type UserRow,
} from '../../../../contract/schemas';
import { USERS_ENDPOINT } from '../api/admin';
import { ListScreen, type ListScreenConfig } from '../../../machines/list.view';
import { searchFilter } from '../../../ui/dom/list/asset-filters';
import { dateColumn } from '../../../ui/dom/list/columns';
import { personIcon } from '../../../ui/dom/list/filter-icons';
import { UserBulkActions } from './bulk-actions';
import { roleLabel, statusBadge, userName } from '../user-texts';

/**
 * The users list: its columns, filters and bulk changes. The route declares `list`, the search
 * it validates (filters, sort fields, default order).
 */
export function UsersList({ list }: { list: ListDefinition }) {
  const config = useCallback((t: TFunction, can: Can) => usersList(t, can, list), [list]);
  return <ListScreen config={config} />;
}

/** The people with an account: every role that may read users sees it, admins change it. */
const usersList = (t: TFunction, can: Can, list: ListDefinition): ListScreenConfig<UserRow> => ({
  title: t('users.title'),
  requires: ['read', 'User'],
  endpoint: USERS_ENDPOINT,
  rowSchema: userRowSchema,
  ...list,
  rowLabel: (user) => userName(t, user),
  filters: [
    searchFilter(t),
    {
      field: 'role',
      type: 'multi-select',
      label: t('users.role'),
      icon: personIcon,
      options: roleSchema.options.map((role) => ({ value: role, label: roleLabel(t, role) })),
    },
    {
      field: 'verified',
      type: 'single-select',
      label: t('users.verified'),
      options: [
        { value: 'true', label: t('users.yes') },
        { value: 'false', label: t('users.no') },
      ],
    },
    {
      field: 'status',
      type: 'multi-select',
      label: t('users.status'),
      // Invitations are an admin's to see (the server lists them to no one else).
      options: userStatusSchema.options
        .filter((status) => status !== 'invited' || can('manage', 'User'))
        .map((status) => ({
          value: status,
          label: t(`users.statuses.${status}`),
        })),
    },
  ],
  columns: [
    {
      field: 'email',
      headerName: t('users.email'),
      sortable: true,
      // An invited person has no page yet: their invitation is resent or revoked there.
      render: (user) =>
        user.status === 'invited' ? (
          <Link to="/users/invitations">{userName(t, user)}</Link>
        ) : (
          <Link to="/users/$userId" params={{ userId: user.id }}>
            {userName(t, user)}
          </Link>
        ),
    },
    {
      field: 'role',
      headerName: t('users.role'),
      sortable: true,
      render: (user) => roleLabel(t, user.role),
    },
    {
      field: 'verifiedAt',
      headerName: t('users.verified'),
      render: (user) => (user.verifiedAt ? t('users.yes') : t('users.no')),
    },
    { field: 'status', headerName: t('users.status'), render: (user) => statusBadge(t, user) },
    dateColumn('createdAt', t('users.created')),
    dateColumn('lastSignInAt', t('users.lastSignIn')),
  ],
  ...(can('manage', 'User')
    ? { bulkActions: (ids, list) => <UserBulkActions ids={ids} list={list} /> }
    : {}),
});
