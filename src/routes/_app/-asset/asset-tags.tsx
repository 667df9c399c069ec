import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { assetUpdated } from '../../../api/assets';
import type { Asset } from '../../../../contract/schemas';
import { createTag, removeTag, setTag, tagsChanged } from '../../../api/tags';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { usePermissions } from '../../../machines/permissions.view';
import { announce } from '../../../ui/dom/toasts';
import { Failure, Panel } from './panel';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

/**
 * The asset's tags: choosing one sets it, removing one takes it off, at once. A role that may
 * create tags can create one from the typed text ("Create tag “…”"), which is then set.
 */
export function AssetTags({ asset, readOnly }: { asset: Asset; readOnly: boolean }) {
  const { t } = useTranslation();
  const can = usePermissions();
  const current = asset.tags.map((tag) => tag.id);
  const create = useMutation({
    mutationFn: async (name: string) => {
      const tag = await createTag(name);
      await tagsChanged();
      return tag;
    },
  });
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
    // What the tags were before, for Undo. A new change replaces an old failure of a create.
    onMutate: () => {
      create.reset();
      return current;
    },
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
          endpoint={endpoint(ENDPOINTS.tags)}
          multiple
          value={current}
          onChange={(ids) => change.mutate(ids)}
          create={
            can('create', 'Tag')
              ? {
                  label: (name) => t('assetEditor.tagCreate', { name }),
                  // A failure (a name taken meanwhile) shows below, where tagging's do.
                  run: (name) => create.mutateAsync(name).catch(() => undefined),
                }
              : undefined
          }
        />
      )}
      {current.length === 0 && <p className="field-description">{t('assetEditor.noTags')}</p>}
      <Failure error={create.error ?? change.error} />
    </Panel>
  );
}
