import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { assetUpdated } from '../../../api/assets';
import type { Asset } from '../../../api/schemas';
import { removeTag, setTag } from '../../../api/tags';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { announce } from '../../../ui/dom/toasts';
import { Failure, Panel } from './panel';

/** The asset's tags: choosing one sets it, removing one takes it off, at once. */
export function AssetTags({ asset, readOnly }: { asset: Asset; readOnly: boolean }) {
  const { t } = useTranslation();
  const current = asset.tags.map((tag) => tag.id);
  const change = useMutation({
    mutationFn: async (next: string[]) => {
      let latest = asset;
      for (const id of next.filter((tagId) => !current.includes(tagId))) {
        latest = await setTag(asset.id, id);
      }
      for (const id of current.filter((tagId) => !next.includes(tagId))) {
        latest = await removeTag(asset.id, id);
      }
      return latest;
    },
    onSuccess: async (saved, _, previous) => {
      await assetUpdated(saved);
      announce({
        title: t('toasts.tagsChanged', { name: asset.name }),
        tone: 'success',
        action: {
          label: t('list.undo'),
          onAction: () =>
            change.mutate(previous, {
              onSuccess: () =>
                announce({ title: t('toasts.tagsRestored', { name: asset.name }), tone: 'info' }),
            }),
        },
      });
    },
    // What the tags were before, for Undo.
    onMutate: () => current,
  });
  return (
    <Panel title={t('assetEditor.tags')}>
      {readOnly ? (
        current.length > 0 && (
          <ul className="tag-list">
            {asset.tags.map((tag) => (
              <li key={tag.id} className="badge">
                {tag.name}
              </li>
            ))}
          </ul>
        )
      ) : (
        <EntityPicker
          label={t('assetEditor.tagAdd')}
          field="tags"
          endpoint="v1/tags"
          multiple
          value={current}
          onChange={(ids) => change.mutate(ids)}
        />
      )}
      {current.length === 0 && <p className="field-description">{t('assetEditor.noTags')}</p>}
      <Failure error={change.error} />
    </Panel>
  );
}
