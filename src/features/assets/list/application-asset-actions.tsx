import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorInfo } from '../../../api/error-info';
import type { ApplicationAsset } from '../../../../contract/schemas';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import { EntityPicker } from '../../../machines/autocomplete.view';
import type { ListControls } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import type { ActionMenuItem } from '../../../ui/dom/list/row-menu';
import { placeAsset, unplaceAsset } from '../api/mutations';

/** The application whose asset list the actions act on. */
interface Application {
  id: string;
  name: string;
}

/**
 * Adds `assetIds` at the end of the application, in the order picked; one already there is
 * left where it is. Answers the ids added.
 */
async function addAll(applicationId: string, assetIds: readonly string[]): Promise<string[]> {
  const added: string[] = [];
  // One at a time: each lands after the one before it.
  for (const id of assetIds) {
    try {
      await placeAsset(id, { applicationId });
      added.push(id);
    } catch (error) {
      if (errorInfo(error).code !== 'CONFLICT') throw error;
    }
  }
  return added;
}

/** Takes `assetIds` out of the application. */
async function removeAll(applicationId: string, assetIds: readonly string[]): Promise<void> {
  for (const id of assetIds) await unplaceAsset(id, applicationId);
}

/** Adds `rows` back at their old positions, lowest first, so each lands where it was. */
const putBack = async (rows: readonly ApplicationAsset[]) => {
  const byPosition = [...rows].sort((a, b) => a.position - b.position);
  for (const row of byPosition) {
    await placeAsset(row.assetId, { applicationId: row.applicationId, position: row.position });
  }
};

/** Picks assets by name (searched on the server, a page at a time) and adds them. */
export function AddToApplication({
  application,
  list,
}: {
  application: Application;
  list: ListControls;
}) {
  const { t } = useTranslation();
  const [ids, setIds] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const add = () => {
    if (ids.length === 0) return;
    setBusy(true);
    void list
      .run(
        () => addAll(application.id, ids),
        (added) => ({
          done:
            added.length === 0
              ? t('applications.alreadyIn', { application: application.name })
              : t('applications.added', { count: added.length, application: application.name }),
          ...(added.length > 0 && {
            undo: {
              run: () => removeAll(application.id, added),
              done: t('applications.addUndone', {
                count: added.length,
                application: application.name,
              }),
            },
          }),
        }),
      )
      .then((ok) => {
        setBusy(false);
        if (ok) setIds([]);
      });
  };
  return (
    <div className="toolbar">
      <EntityPicker
        label={t('applications.pickAssets')}
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
        pendingLabel={t('applications.adding')}
        isDisabled={ids.length === 0}
        onPress={add}
      >
        {ids.length === 0
          ? t('applications.addAssetsNone')
          : t('applications.addAssets', { count: ids.length })}
      </ActionButton>
    </div>
  );
}

/** Takes `rows` out of `application`; says so, and Undo puts them back where they were. */
export function removeFromApplication(
  t: TFunction,
  list: ListControls,
  application: Application,
  rows: readonly ApplicationAsset[],
) {
  const [only] = rows;
  const place = { name: only?.asset.name, application: application.name };
  return list.run(
    () =>
      removeAll(
        application.id,
        rows.map((row) => row.assetId),
      ),
    {
      done:
        rows.length === 1
          ? t('toasts.removedFromApplication', place)
          : t('applications.removed', { count: rows.length, application: application.name }),
      undo: {
        run: () => putBack(rows),
        done:
          rows.length === 1
            ? t('toasts.backInApplication', place)
            : t('applications.backIn', { count: rows.length, application: application.name }),
      },
    },
  );
}

/** A row's "Remove from application". */
export const removeFromApplicationAction = (
  t: TFunction,
  list: ListControls,
  application: Application,
): ActionMenuItem<ApplicationAsset> => ({
  title: t('applications.removeAsset'),
  color: 'danger',
  onAction: (row) => void removeFromApplication(t, list, application, [row]),
});

/** The bulk bar of an application's asset list: remove the selected assets from it. */
export function ApplicationAssetsBulkActions({
  application,
  rows,
  list,
}: {
  application: Application;
  rows: ApplicationAsset[];
  list: ListControls;
}) {
  const { t } = useTranslation();
  const count = rows.length;
  return (
    <div className="bulk-actions" role="toolbar" aria-label={t('bulk.selected', { count })}>
      <strong>{t('bulk.selected', { count })}</strong>
      <ActionButton
        variant="danger"
        isDisabled={count === 0}
        onPress={() => void removeFromApplication(t, list, application, rows)}
      >
        {t('applications.removeSelected', { count })}
      </ActionButton>
    </div>
  );
}
