import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../../contract/schemas';
import { addTag } from '../../../api/mutations';
import { setAssetTags } from '../api/mutations';
import { EntityPicker } from '../../../machines/autocomplete.view';
import { usePermissions } from '../../../machines/permissions.view';
import { announce } from '../../../ui/dom/toasts';
import { Failure, Panel } from './panel';
import { TagLink } from '../asset-link';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

/**
 * The asset's tags: choosing one sets it, removing one takes it off, at once. A role that may
 * create tags can create one from the typed text ("Create tag “…”"), which is then set.
 */
export function AssetTags({ asset, readOnly }: { asset: Asset; readOnly: boolean }) {
  const { t } = useTranslation();
  const can = usePermissions();
  const current = asset.tags.map((tag) => tag.id);
  const create = useMutation({ mutationFn: addTag });
  const change = useMutation({
    mutationFn: (next: string[]) => setAssetTags(asset, next),
    onSuccess: (_, __, previous) => {
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
                {can('read', 'Tag') ? <TagLink name={tag.name} /> : tag.name}
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
          // The asset comes with its tags' names: no lookup, and no chips changing size late.
          labels={Object.fromEntries(asset.tags.map((tag) => [tag.id, tag.name]))}
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
