import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { assetApplicationsQuery } from '../api/cache';
import { describeError } from '../../../api/error-info';
import { moveAssetInApplication, placeAsset, syncPlacement, unplaceAsset } from '../api/mutations';
import type { Asset, AssetApplication } from '../../../../contract/schemas';
import type { SavedEntity } from '../../../machines/entity-editor.machine';
import { SaveConflict } from '../../../machines/conflict-panel.view';
import { useEntitySave, useOnSaved } from '../../../machines/entity-editor.view';
import { saveAssetTarget } from '../save-asset';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { announceOutcome, type ChangeOutcome } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { formatDate } from '../../../ui/dom/list/cells';
import { announce } from '../../../ui/dom/toasts';
import { Failure, Panel } from './panel';
import { ApplicationLink } from '../asset-link';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

/**
 * Says what a placement change did. Undo runs the inverse on its own, not through a component,
 * since the toast may outlive the row or the page; it says what it did, or why it failed.
 */
const announcePlacement = (outcome: ChangeOutcome, t: TFunction) =>
  announceOutcome(outcome, t, {
    failed: (error) =>
      announce({
        title: t('assetEditor.actionFailed', {
          action: t('list.undo'),
          message: describeError(error, t),
        }),
        tone: 'error',
      }),
  });

/**
 * A change of the asset's placement: `work` stores it and says what it did, and a toast says
 * so. That happens in the mutation's own callback, which runs even when the row that asked is
 * gone (a move re-keys it).
 */
function usePlacementChange() {
  const { t } = useTranslation();
  return useMutation({
    mutationFn: (work: () => Promise<ChangeOutcome>) => work(),
    onSuccess: (outcome) => announcePlacement(outcome, t),
  });
}

/**
 * The position the user typed for a row, and the row's version when they started typing (the
 * base of the move): until then the field follows the stored position.
 */
interface PositionEdit {
  value: string;
  baseVersion: number | undefined;
}

/**
 * One application row: its position (a move based on the version the user started from: a
 * position someone else changed meanwhile asks which to keep), sync with parent, remove.
 */
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
  const [edit, setEdit] = useState<PositionEdit | null>(null);
  const position = edit?.value ?? String(row.position);
  const action = usePlacementChange();
  const saver = useEntitySave(saveAssetTarget);
  // Where the row was when the move was asked for (the answer re-renders the row first).
  const movedFrom = useRef(row.position);
  const target = Number.parseInt(position, 10);
  const place = { name: asset.name, application: row.applicationName };
  const moveTo = (to: number, baseVersion?: number) =>
    moveAssetInApplication(
      row.assetId,
      { applicationId: row.applicationId, position: to },
      baseVersion,
    );
  useOnSaved(saver, (entity: SavedEntity) => {
    setEdit(null);
    // Nothing was stored when the user kept the other position.
    if (!entity.changed) return;
    const moved = entity as SavedEntity & AssetApplication;
    const from = movedFrom.current;
    // The server puts a position past the end last: say where it went.
    announcePlacement(
      {
        done: t('toasts.movedInApplication', { ...place, position: moved.position }),
        undo: {
          run: () => moveTo(from, moved.version),
          done: t('toasts.movedBackInApplication', { ...place, position: from }),
        },
      },
      t,
    );
  });
  return (
    <li className="application-row">
      <div>
        <strong>
          <ApplicationLink id={row.applicationId}>{row.applicationName}</ApplicationLink>
        </strong>
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
              disabled={saver.conflict !== null}
              value={position}
              onChange={(event) =>
                setEdit({
                  value: event.target.value,
                  baseVersion: edit?.baseVersion ?? row.version,
                })
              }
              aria-label={t('assetEditor.position')}
            />
          </label>
          <ActionButton
            isPending={saver.isSaving}
            isDisabled={saver.conflict !== null}
            onPress={() => {
              if (Number.isInteger(target) && target >= 1 && target !== row.position) {
                movedFrom.current = row.position;
                saver.save({
                  target: {
                    entity: 'applicationAsset',
                    id: row.assetId,
                    applicationId: row.applicationId,
                    baseVersion: edit?.baseVersion ?? row.version,
                  },
                  values: { position: target },
                  files: [],
                });
              }
            }}
          >
            {t('assetEditor.move')}
          </ActionButton>
          <ActionButton
            onPress={() =>
              action.mutate(async () => {
                await syncPlacement(row);
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
                await unplaceAsset(row.assetId, row.applicationId);
                return {
                  done: t('toasts.removedFromApplication', place),
                  // Back where it was (its sync state starts afresh).
                  undo: {
                    run: () =>
                      placeAsset(row.assetId, {
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
      <SaveConflict saver={saver} labels={{ position: t('assetEditor.position') }} />
      <Failure error={action.error ?? saver.error} />
    </li>
  );
}

/** The applications holding the asset: add, move, sync with parent, remove. */
export function AssetApplications({ asset, canEdit }: { asset: Asset; canEdit: boolean }) {
  const { t } = useTranslation();
  const rows = useQuery(assetApplicationsQuery(asset.id));
  const [picked, setPicked] = useState<string[]>([]);
  const add = usePlacementChange();
  const applicationId = picked[0];
  return (
    <Panel title={t('assetEditor.applications')} busy={rows.isPending}>
      {rows.data?.length === 0 && (
        <p className="field-description">{t('assetEditor.noApplications')}</p>
      )}
      {rows.data && rows.data.length > 0 && (
        <ul className="application-list">
          {rows.data.map((row) => (
            <ApplicationRow key={row.id} asset={asset} row={row} canEdit={canEdit} />
          ))}
        </ul>
      )}
      {canEdit && (
        <div className="toolbar">
          <EntityPicker
            label={t('assetEditor.application')}
            field="applicationId"
            endpoint={endpoint(ENDPOINTS.applications)}
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
                  const placed = await placeAsset(asset.id, { applicationId });
                  const place = { name: asset.name, application: placed.applicationName };
                  return {
                    done: t('toasts.addedToApplication', place),
                    undo: {
                      run: () => unplaceAsset(asset.id, applicationId),
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
