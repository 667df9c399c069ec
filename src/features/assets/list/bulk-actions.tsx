import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Can } from '../../../../contract/ability';
import { EntityPicker } from '../../../machines/autocomplete.view';
import type { ListControls } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import { deleteChange, lockChange, runChange, tagChange } from './asset-changes';

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
  const tagId = tag[0];
  const tagAll = (adds: boolean) => {
    if (tagId)
      void runChange(list, tagChange(t, adds, tagId, ids)).then((ok) => ok && setTagPicked([]));
  };
  return (
    <div className="bulk-actions" role="toolbar" aria-label={t('bulk.selected', { count })}>
      <strong>{t('bulk.selected', { count })}</strong>
      {can('update', 'Asset') && (
        <>
          <ActionButton onPress={() => void runChange(list, lockChange(t, true, { ids }))}>
            {t('bulk.lock')}
          </ActionButton>
          <ActionButton onPress={() => void runChange(list, lockChange(t, false, { ids }))}>
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
          void runChange(list, deleteChange(t, { ids }));
        }}
      >
        <p>{t('bulk.deleteBody')}</p>
      </FormDialog>
    </div>
  );
}
