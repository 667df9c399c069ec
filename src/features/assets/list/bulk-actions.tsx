import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Can } from '../../../../contract/ability';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { runBulkJob, useAllMatching } from '../../../machines/bulk-jobs.view';
import type { BulkScope, ListControls } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import { deleteChange, lockChange, runChange, tagChange } from './asset-changes';
import type { BulkJobAction } from '../../../../contract/bulk-jobs';

/**
 * What the selected assets can have done to them together: lock, unlock, put a tag on or take
 * it off, and delete. Each is one call, all or none on the server (a locked asset stops a tag
 * change, naming it, and tags nothing); each says what it did in one toast, and Undo runs the
 * inverse call on the assets it changed.
 *
 * With every row on screen selected, it offers every asset the filter matches (as Gmail
 * does); the same actions then run as a job on the server, in batches, whose progress shows
 * above the list (bulk-job-progress.tsx).
 */
export function AssetBulkActions({
  ids,
  list,
  scope,
  can,
}: {
  ids: string[];
  list: ListControls;
  scope: BulkScope;
  can: Can;
}) {
  const { t } = useTranslation();
  const [tag, setTagPicked] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const { allMatching, label, offer, reset } = useAllMatching(ids, scope, 'bulk');
  const count = ids.length;
  const tagId = tag[0];
  const runJob = async (action: BulkJobAction, jobTag?: string) => {
    const started = await runBulkJob(list, scope, {
      action,
      ...(jobTag === undefined ? {} : { tagId: jobTag }),
    });
    if (started) reset();
    return started;
  };
  const lockAll = (locked: boolean) => {
    if (allMatching) void runJob(locked ? 'lock' : 'unlock');
    else void runChange(list, lockChange(t, locked, { ids }));
  };
  const tagAll = (adds: boolean) => {
    if (!tagId) return;
    const done = (ok: boolean) => ok && setTagPicked([]);
    if (allMatching) void runJob(adds ? 'setTag' : 'removeTag', tagId).then(done);
    else void runChange(list, tagChange(t, adds, tagId, ids)).then(done);
  };
  return (
    <div className="bulk-actions" role="toolbar" aria-label={label}>
      <strong>{label}</strong>
      {offer}
      {can('update', 'Asset') && (
        <>
          <ActionButton onPress={() => lockAll(true)}>{t('bulk.lock')}</ActionButton>
          <ActionButton onPress={() => lockAll(false)}>{t('bulk.unlock')}</ActionButton>
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
        title={allMatching ? t('bulk.deleteAllTitle') : t('bulk.deleteTitle', { count })}
        submitLabel={t('bulk.delete')}
        cancelLabel={t('list.cancel')}
        tone="danger"
        onSubmit={() => {
          setConfirming(false);
          if (allMatching) void runJob('delete');
          else void runChange(list, deleteChange(t, { ids }));
        }}
      >
        <p>{allMatching ? t('bulk.deleteAllBody') : t('bulk.deleteBody')}</p>
      </FormDialog>
    </div>
  );
}
