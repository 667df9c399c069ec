/**
 * Renaming a tag: the name is saved on the version the list showed (If-Match); when someone
 * else renamed the tag meanwhile, the dialog shows both names to choose from and saves again.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/error-info';
import type { TagRow } from '../../../api/schemas';
import { renameTag, tagsChanged } from '../../../api/tags';
import type { SavedEntity } from '../../../machines/entity-editor.machine';
import { SaveConflict, useEntitySave, useOnSaved } from '../../../machines/entity-editor.view';
import type { ListControls } from '../../../machines/list.view';
import { Alert } from '../../../ui/dom/alert';
import { FormDialog } from '../../../ui/dom/list/row-menu';
import { TextField } from '../../../ui/dom/text-field';

interface RenameTagDialogProps {
  /** The tag as the list showed it when the user chose Rename (the base of the change). */
  tag: TagRow;
  list: ListControls;
  onClose: () => void;
}

export function RenameTagDialog({ tag, list, onClose }: RenameTagDialogProps) {
  const { t } = useTranslation();
  const saver = useEntitySave();
  const [name, setName] = useState(tag.name);
  const [blank, setBlank] = useState(false);
  useOnSaved(saver, (entity: SavedEntity) => {
    onClose();
    // Nothing was stored when the user kept the other rename.
    if (!entity.changed) return;
    const saved = entity as SavedEntity & TagRow;
    list.refresh();
    list.announce({
      done: t('toasts.tagRenamed', { name: saved.name }),
      undo: {
        run: () => renameTag(tag.id, tag.name, saved.version).then(tagsChanged),
        done: t('toasts.tagRenamedBack', { name: tag.name }),
      },
    });
  });
  return (
    <FormDialog
      isOpen
      onClose={onClose}
      title={t('tags.renameTitle')}
      submitLabel={t('tags.rename')}
      cancelLabel={t('list.cancel')}
      isSubmitHidden={saver.conflict !== null}
      onSubmit={() => {
        const trimmed = name.trim();
        setBlank(trimmed === '');
        if (trimmed === '') return false;
        if (trimmed === tag.name) return undefined;
        saver.save({
          target: { entity: 'tag', id: tag.id, baseVersion: tag.version },
          values: { name: trimmed },
          files: [],
        });
        return false;
      }}
    >
      <TextField
        name="name"
        label={t('tags.name')}
        value={name}
        onChange={setName}
        autoFocus
        disabled={saver.conflict !== null}
        error={blank ? t('form.required') : null}
      />
      <SaveConflict saver={saver} labels={{ name: t('tags.name') }} />
      {saver.error && !saver.isSaving && (
        <Alert tone="error">{describeError(saver.error, t)}</Alert>
      )}
    </FormDialog>
  );
}
