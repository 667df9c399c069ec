import type { TFunction } from 'i18next';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { assetSchema, type Asset } from '../../api/schemas';
import { addUserAssets, assetsAssigned, removeUserAssets } from '../../api/user-assets';
import type { Can } from '../../api/ability';
import { ActionButton } from '../../ui/dom/action-button';
import { displayLabel, searchFilter, typeFilter } from '../../ui/dom/list/asset-filters';
import { ASSET_TYPES } from '../../domain/assets';
import { EntityPicker } from '../../machines/autocomplete.view';
import { assetNameCell, badgeCell } from '../../ui/dom/list/cells';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../machines/list.view';

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
  component: UserAssetsScreen,
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
        endpoint="v1/assets"
        multiple
        limitTags={3}
        value={ids}
        onChange={setIds}
      />
      <ActionButton
        variant="primary"
        isPending={busy}
        onPress={() => {
          if (ids.length === 0) return;
          setBusy(true);
          void list
            .run(() => addUserAssets(userId, ids).then(() => assetsAssigned(ids)), {
              done: t('toasts.assigned', { count: ids.length }),
            })
            .then((ok) => {
              setBusy(false);
              if (ok) setIds([]);
            });
        }}
      >
        {t('userAssets.add', { count: ids.length })}
      </ActionButton>
    </div>
  );
}

/** The assets assigned to one user; admins add and remove them. */
function UserAssetsScreen() {
  const { userId } = Route.useParams();
  const config = useCallback(
    (t: TFunction, can: Can): ListScreenConfig<Asset> => ({
      title: t('userAssets.title'),
      requires: ['read', 'UserAsset', { userId }],
      endpoint: `v1/user-assets/${encodeURIComponent(userId)}`,
      rowSchema: assetSchema,
      ...list,
      rowLabel: (asset) => asset.name,
      filters: [searchFilter(t), typeFilter(t)],
      columns: [
        { field: 'name', headerName: t('assets.name'), sortable: true, render: assetNameCell },
        { field: 'type', headerName: t('assets.type'), render: (a) => badgeCell(a.type) },
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
                  void list.run(
                    () =>
                      removeUserAssets(userId, [asset.id]).then(() => assetsAssigned([asset.id])),
                    {
                      done: t('toasts.unassigned', { name: asset.name }),
                      undo: {
                        run: () =>
                          addUserAssets(userId, [asset.id]).then(() => assetsAssigned([asset.id])),
                        done: t('toasts.reassigned', { name: asset.name }),
                      },
                    },
                  ),
              },
            ],
          }
        : {}),
    }),
    [userId],
  );
  return <ListScreen key={userId} config={config} />;
}
