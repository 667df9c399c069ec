import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Can } from '../../../api/ability';
import { bulkDeleteAssets, changeAsset, lockAsset, unlockAsset } from '../../../api/assets';
import { removeTag, setTag } from '../../../api/tags';
import { EntityPicker } from '../../../machines/autocomplete.view';
import type { ListControls } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { FormDialog } from '../../../ui/dom/list/row-menu';

/** Runs `work` on every id, one after the other (each change is recorded on its asset). */
const eachOf = (ids: string[], work: (id: string) => Promise<unknown>) => async () => {
  for (const id of ids) await work(id);
};

/**
 * What the selected assets can have done to them together: lock, unlock, add a tag (each
 * with Undo) and delete (one transaction on the server: all or none).
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
  const lockAll = (locked: boolean) =>
    void list.run(
      eachOf(ids, (id) => changeAsset(locked ? lockAsset(id) : unlockAsset(id))),
      {
        done: t(locked ? 'bulk.locked' : 'bulk.unlocked', { count }),
        undo: {
          run: eachOf(ids, (id) => changeAsset(locked ? unlockAsset(id) : lockAsset(id))),
          done: t(locked ? 'bulk.unlocked' : 'bulk.locked', { count }),
        },
      },
    );
  const tagId = tag[0];
  return (
    <div className="bulk-actions" role="toolbar" aria-label={t('bulk.selected', { count })}>
      <strong>{t('bulk.selected', { count })}</strong>
      {can('update', 'Asset') && (
        <>
          <ActionButton onPress={() => lockAll(true)}>{t('bulk.lock')}</ActionButton>
          <ActionButton onPress={() => lockAll(false)}>{t('bulk.unlock')}</ActionButton>
          <EntityPicker
            label={t('bulk.tag')}
            field="bulkTag"
            endpoint="v1/tags"
            value={tag}
            onChange={setTagPicked}
          />
          <ActionButton
            onPress={() =>
              tagId &&
              void list
                .run(
                  eachOf(ids, (id) => changeAsset(setTag(id, tagId))),
                  {
                    done: t('bulk.tagged', { count }),
                    undo: {
                      run: eachOf(ids, (id) => changeAsset(removeTag(id, tagId))),
                      done: t('bulk.untagged'),
                    },
                  },
                )
                .then((ok) => ok && setTagPicked([]))
            }
          >
            {t('bulk.addTag')}
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
          void list.run(() => bulkDeleteAssets(ids), { done: t('bulk.deleted', { count }) });
        }}
      >
        <p>{t('bulk.deleteBody')}</p>
      </FormDialog>
    </div>
  );
}
