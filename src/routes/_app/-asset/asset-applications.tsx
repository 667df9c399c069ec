import { useMutation, useQuery } from '@tanstack/react-query';
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
import type { Asset, AssetApplication } from '../../../api/schemas';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { Failure, Panel } from './panel';

/** Lists that show where assets are placed. */
const showsPlacements = (endpoint: string) => endpoint.startsWith('v1/application-assets');

/** A change of the asset's placement: its applications, changelog and application lists follow. */
function usePlacementChange<V>(asset: Asset, work: (variables: V) => Promise<unknown>) {
  return useMutation({
    mutationFn: work,
    onSuccess: () => assetRelationsChanged(asset.id, showsPlacements),
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
  const action = usePlacementChange(asset, (work: () => Promise<unknown>) => work());
  const target = Number.parseInt(position, 10);
  return (
    <li className="application-row">
      <div>
        <strong>{row.applicationName}</strong>
        <span className="field-description">
          {row.syncedAt
            ? t('assetEditor.synced', { date: new Date(row.syncedAt).toLocaleString() })
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
              if (Number.isInteger(target) && target >= 1) {
                action.mutate(() =>
                  updateAssetApplication(row.assetId, {
                    applicationId: row.applicationId,
                    position: target,
                  }),
                );
              }
            }}
          >
            {t('assetEditor.move')}
          </ActionButton>
          <ActionButton onPress={() => action.mutate(() => syncWithParent(row.id))}>
            {t('assetEditor.syncWithParent')}
          </ActionButton>
          <ActionButton
            variant="link"
            onPress={() =>
              action.mutate(() =>
                removeAssetFromApplication(row.assetId, { applicationId: row.applicationId }),
              )
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
  const add = usePlacementChange(asset, (applicationId: string) =>
    addAssetToApplication(asset.id, { applicationId }),
  );
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
            onPress={() =>
              applicationId && add.mutate(applicationId, { onSuccess: () => setPicked([]) })
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
