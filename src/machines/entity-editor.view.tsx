/**
 * The pieces every entity editor (assets, cage meshes) shares: the save machine binding with
 * its progress and Retry bar, the upload fields under the form naming rule (XFile / XUrl), the
 * form element with the save shortcut, and the unsaved-changes guard (router navigation and the
 * browser's beforeunload). The forms' common logic is useEntityForm (entity-form.view.ts); the
 * conflict panel is conflict-panel.view.tsx.
 */
import { useBlocker } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { fromPromise } from 'xstate';
import { useTranslation } from 'react-i18next';
import type { UploadKind } from '../../contract/schemas';
import type { FileError } from '../../core/files/validate';
import { inspect } from '../devtools/inspect';
import {
  entityEditorMachine,
  selectConflict,
  selectError,
  selectFailedStep,
  selectIsSaved,
  selectIsSaving,
  selectProgress,
  selectRequest,
  selectStored,
  type PendingFile,
  type SaveEntity,
  type SavedEntity,
  type SaveInput,
  type SaveRequest,
} from './entity-editor.machine';
import { ActionButton } from '../ui/dom/action-button';
import { Alert } from '../ui/dom/alert';
import { FormDialog } from '../ui/dom/list/row-menu';
import { describeError } from '../api/error-info';
import { matchesShortcut, modShortcutAria, modShortcutLabel } from '../ui/dom/shortcuts';
import { FileField } from './file-field.view';

/** One upload field of a form: X with its kind, label and rule text. */
export interface FileFieldDef {
  field: string;
  kind: UploadKind;
  label: string;
  description: string;
  preview?: { width: number; height: number };
}

/**
 * The save request of a form: each field with a new file is uploaded (its `XUrl` comes from the
 * upload); for the others `XUrl` is sent as it is (null when the file was removed).
 */
export function saveRequestOf(
  target: SaveRequest['target'],
  values: Record<string, unknown>,
  body: Record<string, unknown>,
  fields: readonly FileFieldDef[],
): SaveRequest {
  const files: PendingFile[] = [];
  const rest: Record<string, unknown> = { ...body };
  for (const { field, kind } of fields) {
    const file = values[`${field}File`];
    if (file instanceof File) files.push({ field, kind, file });
    else rest[`${field}Url`] = values[`${field}Url`] ?? null;
  }
  return { target, values: rest, files };
}

/**
 * Binds the save machine (see useOnSaved for what happens after a save). A feature whose targets
 * the machine does not save itself passes its `save` (read once, when the machine starts).
 */
export function useEntitySave(save?: SaveEntity) {
  const actor = useActorRef(
    save
      ? entityEditorMachine.provide({
          actors: { save: fromPromise<SavedEntity, SaveInput>(({ input }) => save(input)) },
        })
      : entityEditorMachine,
    { inspect },
  );
  return {
    actor,
    save: (request: SaveRequest) => actor.send({ type: 'SAVE', request }),
    retry: () => actor.send({ type: 'RETRY' }),
    /** Sends the conflicting change again, taking theirs for the fields of `theirs`. */
    resolve: (theirs: readonly string[]) => actor.send({ type: 'RESOLVE', theirs }),
    conflict: useSelector(actor, selectConflict),
    request: useSelector(actor, selectRequest),
    stored: useSelector(actor, selectStored),
    isSaving: useSelector(actor, selectIsSaving),
    isSaved: useSelector(actor, selectIsSaved),
    progress: useSelector(actor, selectProgress),
    error: useSelector(actor, selectError),
    failedStep: useSelector(actor, selectFailedStep),
  };
}

/** Runs `handler` once per successful save of `saver`. */
export function useOnSaved(saver: EntitySave, handler: (entity: SavedEntity) => void) {
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });
  const { actor } = saver;
  useEffect(() => {
    const subscription = actor.on('SAVED', ({ entity }) => handlerRef.current(entity));
    return () => subscription.unsubscribe();
  }, [actor]);
}

export type EntitySave = ReturnType<typeof useEntitySave>;

interface SaveBarProps {
  saver: EntitySave;
  submitLabel: string;
  /** The labels of the fields changed since the last save (see changedLabels). */
  changes: readonly string[];
  /** Puts the form back as it was loaded (or blank). */
  onDiscard: () => void;
  /** The files being uploaded by field, for the progress lines. */
  files: Record<string, File | null>;
  /** The last submit was blocked by invalid fields. */
  blocked: boolean;
  disabled?: boolean;
  /** The form has changes since the last save. */
  isDirty: boolean;
}

/**
 * Submit button, per-file upload progress, "Saved." and the failure with Retry. While the form
 * has unsaved changes the bar stays at the bottom of the window (within the form), says which
 * fields changed and offers Discard beside Save (and the platform's save shortcut, see
 * EntityForm).
 */
export function SaveBar(props: SaveBarProps) {
  const { saver, submitLabel, files, blocked, disabled, isDirty, changes, onDiscard } = props;
  const { t, i18n } = useTranslation();
  const uploads = Object.entries(saver.progress).flatMap(([field, fraction]) => {
    const file = files[field];
    return file ? [{ field, file, fraction }] : [];
  });
  const pending = isDirty && !disabled;
  const summaryId = useId();
  const [isDiscarding, setDiscarding] = useState(false);
  const justSaved = saver.isSaved && !isDirty;
  const barRef = useRef<HTMLDivElement>(null);
  // A save pressed elsewhere (the conflict panel's Save again, which then goes, and the page
  // moves up under the window) still says so in sight.
  useEffect(() => {
    if (justSaved) barRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [justSaved]);
  const fields = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(changes);
  // The bar stays at the bottom of the window while it has something to say: the changes, the
  // save under way, and then that it is saved, where the user pressed Save (the form may be
  // long, and its end far below).
  return (
    <div
      ref={barRef}
      className={pending || saver.isSaving || justSaved ? 'save-bar pending' : 'save-bar'}
    >
      {pending && changes.length > 0 && (
        <p className="save-summary" id={summaryId}>
          {t('saveBar.unsaved', {
            count: changes.length,
            fields,
          })}
        </p>
      )}
      {!disabled && (
        <div className="save-actions">
          <ActionButton
            type="submit"
            variant="primary"
            isPending={saver.isSaving}
            pendingLabel={t('assetEditor.saving')}
            keyShortcuts={modShortcutAria('s')}
            {...(pending && changes.length > 0 ? { describedBy: summaryId } : {})}
          >
            {submitLabel}
          </ActionButton>
          {pending && !saver.isSaving && (
            <ActionButton onPress={() => setDiscarding(true)}>{t('saveBar.discard')}</ActionButton>
          )}
          {/* Discarding loses work that no Undo brings back: it asks first. */}
          <FormDialog
            isOpen={isDiscarding}
            onClose={() => setDiscarding(false)}
            title={t('saveBar.discardTitle')}
            submitLabel={t('saveBar.discardConfirm')}
            cancelLabel={t('saveBar.keepEditing')}
            tone="danger"
            onSubmit={() => {
              setDiscarding(false);
              onDiscard();
              return false;
            }}
          >
            <p>{t('saveBar.discardBody', { fields })}</p>
          </FormDialog>
          {pending && (
            <span className="save-hint">
              {t('saveBar.shortcut', { keys: modShortcutLabel('s') })}
            </span>
          )}
        </div>
      )}
      {saver.isSaving && uploads.length > 0 && (
        <ul className="upload-progress" aria-label={t('assetEditor.files')}>
          {uploads.map(({ field, file, fraction }) => {
            const percent = Math.round(fraction * 100);
            return (
              <li key={field}>
                <span>
                  {fraction >= 1
                    ? t('assetEditor.uploaded', { file: file.name })
                    : t('assetEditor.uploading', { file: file.name, percent })}
                </span>
                <progress max={100} value={percent} aria-label={file.name} />
              </li>
            );
          })}
        </ul>
      )}
      {blocked && <Alert tone="error">{t('assetEditor.fixErrors')}</Alert>}
      {justSaved && <Alert tone="success">{t('assetEditor.saved')}</Alert>}
      {saver.error && !saver.isSaving && (
        <Alert tone="error">
          {t(
            saver.failedStep === 'upload' ? 'assetEditor.uploadFailed' : 'assetEditor.saveFailed',
            {
              message: describeError(saver.error, t),
            },
          )}{' '}
          <ActionButton onPress={saver.retry}>{t('assetEditor.retry')}</ActionButton>
        </Alert>
      )}
    </div>
  );
}

interface UploadFieldProps {
  def: FileFieldDef;
  file: File | null;
  url: string | null;
  submitted: boolean;
  disabled: boolean;
  /** XFile changed; on removal the form also clears XUrl. */
  onChange: (file: File | null, error: FileError | null) => void;
}

/** One upload field of the form, under the naming rule. */
export function UploadField({ def, file, url, submitted, disabled, onChange }: UploadFieldProps) {
  return (
    <FileField
      label={def.label}
      kind={def.kind}
      file={file}
      url={url}
      submitted={submitted}
      disabled={disabled}
      description={def.description}
      {...(def.preview ? { preview: def.preview } : {})}
      onChange={({ file: next, error }) => onChange(next, error)}
    />
  );
}

/**
 * The form element both entity forms use: no native validation (the schema does it), submit
 * through the form library, and the unsaved-changes guard while `isBlocking()`.
 */
export function EntityForm({
  formRef,
  label,
  onSubmit,
  isBlocking,
  canSave,
  children,
}: {
  formRef: RefObject<HTMLFormElement | null>;
  label: string;
  onSubmit: () => unknown;
  isBlocking: () => boolean;
  /** The save shortcut saves now: there are changes, the Save button shows, no save runs. */
  canSave: boolean;
  children: ReactNode;
}) {
  useSaveShortcut(formRef, canSave);
  return (
    <form
      ref={formRef}
      className="entity-form"
      noValidate
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        event.stopPropagation();
        void onSubmit();
      }}
    >
      <UnsavedChangesGuard isBlocking={isBlocking} />
      {children}
    </form>
  );
}

/**
 * Ctrl+S (Cmd+S on macOS) saves the form instead of opening the browser's "Save page" dialog;
 * with nothing to save, or a save under way, it does nothing. A dialog open over the form
 * (which makes the form inert) keeps the key to itself.
 */
function useSaveShortcut(formRef: RefObject<HTMLFormElement | null>, canSave: boolean) {
  const canSaveRef = useRef(canSave);
  useEffect(() => {
    canSaveRef.current = canSave;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!matchesShortcut('save', event)) return;
      event.preventDefault();
      const form = formRef.current;
      if (!form || !canSaveRef.current || event.repeat) return;
      const dialog = document.querySelector('[role="dialog"], [role="alertdialog"]');
      if (dialog && !dialog.contains(form)) return;
      form.requestSubmit();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [formRef]);
}

/**
 * Asks before leaving a form with unsaved changes: router navigations get a dialog, closing
 * or reloading the tab gets the browser's own prompt.
 */
function UnsavedChangesGuard({ isBlocking }: { isBlocking: () => boolean }) {
  const { t } = useTranslation();
  // Read when a navigation starts, not at render: a save resets the form just before it
  // navigates to the saved entity.
  const blocker = useBlocker({
    shouldBlockFn: isBlocking,
    enableBeforeUnload: isBlocking,
    withResolver: true,
  });
  return (
    <FormDialog
      isOpen={blocker.status === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={t('assetEditor.unsavedTitle')}
      submitLabel={t('assetEditor.leave')}
      cancelLabel={t('assetEditor.stay')}
      tone="danger"
      onSubmit={() => {
        blocker.proceed?.();
        return false;
      }}
    >
      <p>{t('assetEditor.unsavedBody')}</p>
    </FormDialog>
  );
}
