import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addAssetToApplication,
  assetApplicationsQuery,
  assetRelationsChanged,
  removeAssetFromApplication,
  syncWithParent,
  updateAssetApplication,
} from '../../../api/assets';
import { describeError } from '../../../api/error-info';
import type { Asset, AssetApplication } from '../../../api/schemas';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { formatDate } from '../../../ui/dom/list/cells';
import { announce } from '../../../ui/dom/toasts';
import { Failure, Panel } from './panel';

/** Lists that show where assets are placed. */
const showsPlacements = (endpoint: string) => endpoint.startsWith('v1/application-assets');

/** What a stored placement change says, and its inverse where that is cheap. */
interface PlacementOutcome {
  done: string;
  undo?: { run: () => Promise<unknown>; done: string };
}

/** The asset's applications, changelog and application lists read again after a change. */
const placementsChanged = (asset: Asset) => assetRelationsChanged(asset.id, showsPlacements);

/**
 * Says what a placement change did. Undo runs the inverse on its own, not through a component,
 * since the toast may outlive the row or the page; it says what it did, or why it failed.
 */
function announcePlacement(asset: Asset, { done, undo }: PlacementOutcome, t: TFunction) {
  announce({
    title: done,
    tone: 'success',
    ...(undo && {
      action: {
        label: t('list.undo'),
        onAction: () =>
          void undo
            .run()
            .then(() => placementsChanged(asset))
            .then(
              () => announce({ title: undo.done, tone: 'info' }),
              (error: unknown) =>
                announce({
                  title: t('assetEditor.actionFailed', {
                    action: t('list.undo'),
                    message: describeError(error, t),
                  }),
                  tone: 'error',
                }),
            ),
      },
    }),
  });
}

/**
 * A change of the asset's placement: `work` stores it and says what it did. Then its
 * applications, changelog and application lists follow, and a toast says so. Both happen in the
 * mutation's own callback, which runs even when the row that asked is gone (a move re-keys it).
 */
function usePlacementChange(asset: Asset) {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (work: () => Promise<PlacementOutcome>) => work(),
    onSuccess: async (outcome) => {
      await placementsChanged(asset);
      announcePlacement(asset, outcome, t);
    },
  });
}

/** One application row: its position (move), sync with parent, remove. */
function ApplicationRow({
  asset,
  row,
  canEdit,
}: {
  asset: Asset;
  row: AssetApplication;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const [position, setPosition] = useState(String(row.position));
  const action = usePlacementChange(asset);
  const target = Number.parseInt(position, 10);
  const place = { name: asset.name, application: row.applicationName };
  const moveTo = (to: number) =>
    updateAssetApplication(row.assetId, { applicationId: row.applicationId, position: to });
  return (
    <li className="application-row">
      <div>
        <strong>{row.applicationName}</strong>
        <span className="field-description">
          {row.syncedAt
            ? t('assetEditor.synced', { date: formatDate(row.syncedAt) })
            : t('assetEditor.neverSynced')}
        </span>
      </div>
      {canEdit && (
        <>
          <label className="inline-field">
            {t('assetEditor.position')}
            <input
              type="number"
              min={1}
              value={position}
              onChange={(event) => setPosition(event.target.value)}
              aria-label={t('assetEditor.position')}
            />
          </label>
          <ActionButton
            isPending={action.isPending}
            onPress={() => {
              if (Number.isInteger(target) && target >= 1 && target !== row.position) {
                action.mutate(async () => {
                  // The server puts a position past the end last: say where it went.
                  const moved = await moveTo(target);
                  return {
                    done: t('toasts.movedInApplication', { ...place, position: moved.position }),
                    undo: {
                      run: () => moveTo(row.position),
                      done: t('toasts.movedBackInApplication', {
                        ...place,
                        position: row.position,
                      }),
                    },
                  };
                });
              }
            }}
          >
            {t('assetEditor.move')}
          </ActionButton>
          <ActionButton
            onPress={() =>
              action.mutate(async () => {
                await syncWithParent(row.id);
                return { done: t('toasts.syncedWithParent', place) };
              })
            }
          >
            {t('assetEditor.syncWithParent')}
          </ActionButton>
          <ActionButton
            variant="link"
            onPress={() =>
              action.mutate(async () => {
                await removeAssetFromApplication(row.assetId, {
                  applicationId: row.applicationId,
                });
                return {
                  done: t('toasts.removedFromApplication', place),
                  // Back where it was (its sync state starts afresh).
                  undo: {
                    run: () =>
                      addAssetToApplication(row.assetId, {
                        applicationId: row.applicationId,
                        position: row.position,
                      }),
                    done: t('toasts.backInApplication', place),
                  },
                };
              })
            }
          >
            {t('assetEditor.remove')}
          </ActionButton>
        </>
      )}
      <Failure error={action.error} />
    </li>
  );
}

/** The applications holding the asset: add, move, sync with parent, remove. */
export function AssetApplications({ asset, canEdit }: { asset: Asset; canEdit: boolean }) {
  const { t } = useTranslation();
  const rows = useQuery(assetApplicationsQuery(asset.id));
  const [picked, setPicked] = useState<string[]>([]);
  const add = usePlacementChange(asset);
  const applicationId = picked[0];
  return (
    <Panel title={t('assetEditor.applications')}>
      {rows.data?.length === 0 && (
        <p className="field-description">{t('assetEditor.noApplications')}</p>
      )}
      {rows.data && rows.data.length > 0 && (
        <ul className="application-list">
          {rows.data.map((row) => (
            <ApplicationRow
              key={`${row.id}-${row.position}`}
              asset={asset}
              row={row}
              canEdit={canEdit}
            />
          ))}
        </ul>
      )}
      {canEdit && (
        <div className="toolbar">
          <EntityPicker
            label={t('assetEditor.application')}
            field="applicationId"
            endpoint="v1/applications"
            value={picked}
            onChange={setPicked}
          />
          <ActionButton
            isPending={add.isPending}
            pendingLabel={t('assetEditor.adding')}
            isDisabled={!applicationId}
            onPress={() =>
              applicationId &&
              add.mutate(
                async () => {
                  const placed = await addAssetToApplication(asset.id, { applicationId });
                  const place = { name: asset.name, application: placed.applicationName };
                  return {
                    done: t('toasts.addedToApplication', place),
                    undo: {
                      run: () => removeAssetFromApplication(asset.id, { applicationId }),
                      done: t('toasts.addUndone', place),
                    },
                  };
                },
                { onSuccess: () => setPicked([]) },
              )
            }
          >
            {t('assetEditor.addToApplication')}
          </ActionButton>
        </div>
      )}
      <Failure error={rows.error ?? add.error} />
    </Panel>
  );
}
