/**
 * Renaming a tag or an application: the name is saved on the version the list or page showed
 * (If-Match); when someone else renamed it meanwhile, the dialog shows both names to choose
 * from and saves again.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../api/error-info';
import { changeApplicationName, changeTagName } from '../api/mutations';
import type { SavedEntity } from './entity-editor.machine';
import { SaveConflict } from './conflict-panel.view';
import { useEntitySave, useOnSaved } from './entity-editor.view';
import type { ListControls } from './list.view';
import { Alert } from '../ui/dom/alert';
import { FormDialog } from '../ui/dom/list/row-menu';
import { TextField } from '../ui/dom/text-field';

/** A record with a name and a version, as a list or page showed it. */
interface Named {
  id: string;
  name: string;
  version?: number;
}

/** What differs between the kinds: the locale keys (by prefix) and the API. */
const KINDS = {
  tag: { texts: 'tags', toast: 'tag', rename: changeTagName },
  application: { texts: 'applications', toast: 'application', rename: changeApplicationName },
} as const;

interface RenameDialogProps {
  kind: keyof typeof KINDS;
  /** The record as it was shown when the user chose Rename (the base of the change). */
  record: Named;
  /** What reloads and tells once the rename is stored. */
  list: Pick<ListControls, 'refresh' | 'announce'>;
  onClose: () => void;
}

export function RenameDialog({ kind, record, list, onClose }: RenameDialogProps) {
  const { t } = useTranslation();
  const { texts, toast, rename } = KINDS[kind];
  const saver = useEntitySave();
  const [name, setName] = useState(record.name);
  const [blank, setBlank] = useState(false);
  useOnSaved(saver, (entity: SavedEntity) => {
    onClose();
    // Nothing was stored when the user kept the other rename.
    if (!entity.changed) return;
    const saved = entity as SavedEntity & Named;
    list.refresh();
    list.announce({
      done: t(`toasts.${toast}Renamed`, { name: saved.name }),
      undo: {
        run: () => rename(record.id, record.name, saved.version),
        done: t(`toasts.${toast}RenamedBack`, { name: record.name }),
      },
    });
  });
  return (
    <FormDialog
      isOpen
      onClose={onClose}
      title={t(`${texts}.renameTitle`)}
      submitLabel={t(`${texts}.rename`)}
      cancelLabel={t('list.cancel')}
      isSubmitHidden={saver.conflict !== null}
      onSubmit={() => {
        const trimmed = name.trim();
        setBlank(trimmed === '');
        if (trimmed === '') return false;
        if (trimmed === record.name) return undefined;
        saver.save({
          target: { entity: kind, id: record.id, baseVersion: record.version },
          values: { name: trimmed },
          files: [],
        });
        return false;
      }}
    >
      <TextField
        name="name"
        label={t(`${texts}.name`)}
        value={name}
        onChange={setName}
        autoFocus
        disabled={saver.conflict !== null}
        error={blank ? t('form.required') : null}
      />
      <SaveConflict saver={saver} labels={{ name: t(`${texts}.name`) }} />
      {saver.error && !saver.isSaving && (
        <Alert tone="error">{describeError(saver.error, t)}</Alert>
      )}
    </FormDialog>
  );
}
