import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Can } from '../../../../contract/ability';
import {
  bulkDeleteAssets,
  bulkLockAssets,
  bulkRemoveTag,
  bulkSetTag,
  bulkUnlockAssets,
} from '../../../api/assets';
import type { AssetBulkChangeResult } from '../../../../contract/schemas';
import { restoreFromTrash } from '../../../api/trash';
import { EntityPicker } from '../../../machines/autocomplete.view';
import type { ChangeOutcome, ListControls } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

type BulkChange = (ids: string[]) => Promise<AssetBulkChangeResult>;

/**
 * What the selected assets can have done to them together: lock, unlock, put a tag on or take
 * it off, and delete. Each is one call, all or none on the server (a locked asset stops a tag
 * change, naming it, and tags nothing); each says what it did in one toast, and Undo runs the
 * inverse call on the assets it changed.
 */
export function AssetBulkActions({
  ids,
  list,
  can,
}: {
  ids: string[];
  list: ListControls;
  can: Can;
}) {
  const { t } = useTranslation();
  const [tag, setTagPicked] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const count = ids.length;
  /** Runs `change` on the selection; `done` and `undone` say what it and its inverse did. */
  const runBulk = (
    change: BulkChange,
    inverse: BulkChange,
    done: string,
    undone: (count: number) => string,
  ) =>
    list.run(
      () => change(ids),
      ({ changed }): ChangeOutcome => ({
        done,
        // Nothing to take back when every asset already was as asked.
        ...(changed.length > 0 && {
          undo: { run: () => inverse(changed), done: undone(changed.length) },
        }),
      }),
    );
  const tagId = tag[0];
  const tagAll = (adds: boolean) => {
    if (!tagId) return;
    const set = (on: string[]) => bulkSetTag(on, tagId);
    const remove = (on: string[]) => bulkRemoveTag(on, tagId);
    void runBulk(
      adds ? set : remove,
      adds ? remove : set,
      t(adds ? 'bulk.tagged' : 'bulk.untagged', { count }),
      (n) => t(adds ? 'bulk.untagged' : 'bulk.tagged', { count: n }),
    ).then((ok) => ok && setTagPicked([]));
  };
  return (
    <div className="bulk-actions" role="toolbar" aria-label={t('bulk.selected', { count })}>
      <strong>{t('bulk.selected', { count })}</strong>
      {can('update', 'Asset') && (
        <>
          <ActionButton
            onPress={() =>
              void runBulk(bulkLockAssets, bulkUnlockAssets, t('bulk.locked', { count }), (n) =>
                t('bulk.unlocked', { count: n }),
              )
            }
          >
            {t('bulk.lock')}
          </ActionButton>
          <ActionButton
            onPress={() =>
              void runBulk(bulkUnlockAssets, bulkLockAssets, t('bulk.unlocked', { count }), (n) =>
                t('bulk.locked', { count: n }),
              )
            }
          >
            {t('bulk.unlock')}
          </ActionButton>
          <EntityPicker
            label={t('bulk.tag')}
            placeholder={t('bulk.tag')}
            field="bulkTag"
            endpoint={endpoint(ENDPOINTS.tags)}
            value={tag}
            onChange={setTagPicked}
          />
          <ActionButton isDisabled={!tagId} onPress={() => tagAll(true)}>
            {t('bulk.addTag')}
          </ActionButton>
          <ActionButton isDisabled={!tagId} onPress={() => tagAll(false)}>
            {t('bulk.removeTag')}
          </ActionButton>
        </>
      )}
      {can('delete', 'Asset') && (
        <ActionButton variant="danger" onPress={() => setConfirming(true)}>
          {t('bulk.delete')}
        </ActionButton>
      )}
      <FormDialog
        isOpen={confirming}
        onClose={() => setConfirming(false)}
        title={t('bulk.deleteTitle', { count })}
        submitLabel={t('bulk.delete')}
        cancelLabel={t('list.cancel')}
        tone="danger"
        onSubmit={() => {
          setConfirming(false);
          void list.run(
            () => bulkDeleteAssets(ids),
            (deleted) => ({
              done: t('bulk.deleted', { count }),
              undo: {
                run: () => restoreFromTrash(deleted.map((id) => ({ kind: 'asset', id }))),
                done: t('bulk.restored', { count: deleted.length }),
              },
            }),
          );
        }}
      >
        <p>{t('bulk.deleteBody')}</p>
      </FormDialog>
    </div>
  );
}
