import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { assetSchema, type Asset } from '../../../contract/schemas';
import { userQuery } from '../../api/user-assets';
import { queryClient } from '../../api/query';
import { selectUser } from '../../machines/app-session';
import {
  loadPermissions,
  permissionsOfSession,
  usePermissions,
} from '../../machines/permissions.view';
import { useSessionActor } from '../../machines/session.view';
import { RecordLoadFailed } from '../-chunks/record-error';
import type { Can } from '../../../contract/ability';
import { ActionButton } from '../../ui/dom/action-button';
import { displayLabel, searchFilter, typeFilter } from '../../ui/dom/list/asset-filters';
import { ASSET_TYPES } from '../../../contract/assets';
import { EntityPicker } from '../../machines/autocomplete.view';
import { assetNameCell, badgeCell } from '../../ui/dom/list/cells';
import { AssetLink, assignAssets, unassignAssets } from '../../features/assets';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../machines/list.view';
import { endpoint, ENDPOINTS } from '../../../contract/paths';

const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    type: z.optional(z.array(z.enum(ASSET_TYPES))),
  }),
  sortFields: ['name', 'createdAt'],
  defaultOrder: { name: 'asc' },
});

export const Route = createFileRoute('/_app/users/$userId/assets')({
  validateSearch: list.validateSearch,
  // The user's e-mail heads the list; an unknown id is "not found", not an empty list. One's
  // own e-mail is in the session; others need a role that may read users.
  loader: async ({ params: { userId }, context }) => {
    if (selectUser(context.session.getSnapshot())._id === userId) return;
    await loadPermissions();
    if (!permissionsOfSession(context.session)('read', 'User')) return;
    await queryClient.ensureQueryData(userQuery(userId));
  },
  component: UserAssetsScreen,
  errorComponent: UserLoadFailed,
});

/** Picks assets with the autocomplete and assigns them to the user. */
function AddAssets({ userId, list }: { userId: string; list: ListControls }) {
  const { t } = useTranslation();
  const [ids, setIds] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  return (
    <div className="toolbar">
      <EntityPicker
        label={t('userAssets.pick')}
        field="assetIds"
        endpoint={endpoint(ENDPOINTS.assets)}
        multiple
        limitTags={3}
        value={ids}
        onChange={setIds}
      />
      <ActionButton
        variant="primary"
        isPending={busy}
        isDisabled={ids.length === 0}
        onPress={() => {
          if (ids.length === 0) return;
          setBusy(true);
          void list
            .run(() => assignAssets(userId, ids), {
              done: t('toasts.assigned', { count: ids.length }),
            })
            .then((ok) => {
              setBusy(false);
              if (ok) setIds([]);
            });
        }}
      >
        {ids.length === 0 ? t('userAssets.addNone') : t('userAssets.add', { count: ids.length })}
      </ActionButton>
    </div>
  );
}

/** The assets assigned to one user; admins add and remove them. */
function UserAssetsScreen() {
  const { userId } = Route.useParams();
  const session = useSessionActor();
  const isOwn = useSelector(session, (s) => selectUser(s)._id === userId);
  const ownEmail = useSelector(session, (s) => selectUser(s).email ?? null);
  const mayReadUsers = usePermissions()('read', 'User');
  const other = useQuery({ ...userQuery(userId), enabled: !isOwn && mayReadUsers });
  // Undefined while unknown (a role that may not read users); null for a guest (no e-mail).
  const email = isOwn ? ownEmail : other.data?.email;
  const config = useCallback(
    (t: TFunction, can: Can): ListScreenConfig<Asset> => ({
      title:
        email === undefined
          ? t('userAssets.title')
          : t('userAssets.titleOf', { name: email ?? t('userAssets.guest') }),
      documentTitle: [email ?? undefined, t('userAssets.title')].filter(
        (part) => part !== undefined,
      ),
      breadcrumbs: [
        <Link to="/" activeOptions={{ exact: true }}>
          {t('nav.dashboard')}
        </Link>,
      ],
      requires: ['read', 'UserAsset', { userId }],
      endpoint: endpoint(ENDPOINTS.userAssets, { userId }),
      rowSchema: assetSchema,
      ...list,
      rowLabel: (asset) => asset.name,
      filters: [searchFilter(t), typeFilter(t)],
      columns: [
        {
          field: 'name',
          headerName: t('assets.name'),
          sortable: true,
          render: (a) => <AssetLink id={a.id}>{assetNameCell(a)}</AssetLink>,
        },
        {
          field: 'type',
          headerName: t('assets.type'),
          render: (a) => badgeCell(displayLabel(a.type)),
        },
        { field: 'gender', headerName: t('assets.gender'), render: (a) => displayLabel(a.gender) },
      ],
      ...(can('update', 'UserAsset', { userId })
        ? {
            toolbar: (list: ListControls) => <AddAssets userId={userId} list={list} />,
            rowActions: (asset: Asset, list: ListControls) => [
              {
                title: t('userAssets.remove'),
                color: 'danger' as const,
                confirm: {
                  title: t('userAssets.removeTitle', { name: asset.name }),
                  body: t('userAssets.removeBody'),
                  confirmLabel: t('userAssets.remove'),
                },
                onAction: () =>
                  void list.run(() => unassignAssets(userId, [asset.id]), {
                    done: t('toasts.unassigned', { name: asset.name }),
                    undo: {
                      run: () => assignAssets(userId, [asset.id]),
                      done: t('toasts.reassigned', { name: asset.name }),
                    },
                  }),
              },
            ],
          }
        : {}),
    }),
    [userId, email],
  );
  return <ListScreen key={userId} config={config} />;
}

/** The user could not be read: not found, or a failure that may pass (then Retry). */
function UserLoadFailed(props: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <RecordLoadFailed
      {...props}
      notFoundTitle={t('userAssets.notFoundTitle')}
      notFound={t('userAssets.notFound')}
      failedTitle={t('userAssets.loadFailedTitle')}
      section={t('userAssets.title')}
      back={<Link to="/">{t('app.backHome')}</Link>}
    />
  );
}
