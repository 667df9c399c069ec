import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListDefinition } from '../../../api/list-url';
import { assetSchema, type Asset } from '../../../../contract/schemas';
import { userQuery } from '../../../api/user-assets';
import { selectUser } from '../../../machines/app-session';
import { usePermissions } from '../../../machines/permissions.view';
import { useSessionActor } from '../../../machines/session.view';
import type { Can } from '../../../../contract/ability';
import { ActionButton } from '../../../ui/dom/action-button';
import { displayLabel, searchFilter, typeFilter } from '../../../ui/dom/list/asset-filters';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { assetNameCell, badgeCell } from '../../../ui/dom/list/cells';
import { AssetLink, assignAssets, unassignAssets } from '../../assets';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../../machines/list.view';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

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

/**
 * The assets assigned to one user; admins add and remove them. The route declares `list`, the
 * search it validates (filters, sort fields, default order).
 */
export function UserAssetsPage({ userId, list }: { userId: string; list: ListDefinition }) {
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
      // The back office reads another user's assets on the private API, as it reads users;
      // one's own on the public one, as a user's app does.
      endpoint: endpoint(
        ENDPOINTS.userAssets,
        { userId },
        !isOwn && can('access', 'PrivateApi') ? 'private' : 'public',
      ),
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
    [userId, email, list, isOwn],
  );
  return <ListScreen key={userId} config={config} />;
}
