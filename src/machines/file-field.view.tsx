import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { storedFileKey, storedFileQuery } from '../api/files';
import { queryClient } from '../api/query';
import type { UploadKind } from '../../contract/schemas';
import { UPLOAD_RULES } from '../../core/files/rules';
import { formatBytes } from '../../core/files/format-bytes';
import type { FileError } from '../../core/files/validate';
import {
  selectFileName,
  selectIsDragging,
  selectView,
  selectVisibleError,
  fileFieldMachine,
  type FileFieldSnapshot,
} from './file-field.machine';
import { inspect } from '../devtools/inspect';
import { FileDrop } from '../ui/dom/file-drop';

export interface FileFieldChange {
  file: File | null;
  error: FileError | null;
}

export interface FileFieldProps {
  /** Visible label; also names the input for assistive tech. */
  label: string;
  /** Picks UPLOAD_RULES[kind]: accepted types, min/max size, header rules. */
  kind: UploadKind;
  /** Form value XFile: the chosen file, if any. */
  file: File | null;
  /** Form value XUrl: the stored address of the current file, if any (shown as its file name). */
  url: string | null;
  /** A file was chosen (valid or not: `error` says) or removed (file null). The form clears XUrl on remove. */
  onChange: (change: FileFieldChange) => void;
  /** The form was submitted at least once: show the error even if the field was never touched. */
  submitted: boolean;
  variant?: 'dropzone' | 'button';
  /** Show an image preview of this size (images only). */
  preview?: { width: number; height: number };
  disabled?: boolean;
  /** Extra help text under the field (e.g. the rule: "PNG, RGBA 8-bit, up to 1024 × 1024, 5 MB"). */
  description?: string;
}

const selectFile = (snapshot: FileFieldSnapshot) => snapshot.context.file;
const selectUrl = (snapshot: FileFieldSnapshot) => snapshot.context.url;

/**
 * A form's file field (spec §3 form naming rule, §4 upload control): binds the file field machine (it checks the file; the entity editor uploads it),
 * which checks each file with UPLOAD_RULES[kind], to the drop area, and reports every chosen
 * or removed file to the form with its error.
 */
export function FileField({
  label,
  kind,
  file,
  url,
  onChange,
  submitted,
  variant = 'dropzone',
  preview,
  disabled = false,
  description,
}: FileFieldProps): JSX.Element {
  const { t } = useTranslation();
  const actor = useActorRef(fileFieldMachine, { input: { kind, file, url }, inspect });
  const view = useSelector(actor, selectView);
  const dragging = useSelector(actor, selectIsDragging);
  const fileName = useSelector(actor, selectFileName);
  const error = useSelector(actor, (snapshot) => selectVisibleError(snapshot, submitted));
  const chosenFile = useSelector(actor, selectFile);
  const chosenUrl = useSelector(actor, selectUrl);
  // A stored file: its original name and size (its address is a random key).
  const storedKey =
    chosenFile === null && chosenUrl !== null ? storedFileKey(chosenUrl) : undefined;
  // The app's cache itself: a file field needs no QueryClientProvider around it.
  const stored = useQuery(
    { ...storedFileQuery(storedKey ?? ''), enabled: storedKey !== undefined },
    queryClient,
  );
  const shownName = stored.data?.name ?? fileName;
  const size = chosenFile?.size ?? stored.data?.size;

  // The machine emits each outcome; the form stores it (and hands it back as props).
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  useEffect(() => {
    const subscription = actor.on('CHANGED', ({ file: next, error: nextError }) =>
      onChangeRef.current({ file: next, error: nextError }),
    );
    return () => subscription.unsubscribe();
  }, [actor]);
  // A value the form set itself (reset, a loaded record); the machine ignores its own.
  useEffect(() => {
    actor.send({ type: 'SYNC', file, url });
  }, [actor, file, url]);

  return (
    <FileDrop
      label={label}
      accept={UPLOAD_RULES[kind].accept}
      variant={variant}
      status={view}
      fileName={shownName}
      fileSize={size === undefined ? null : formatBytes(size)}
      busy={storedKey !== undefined && stored.isPending}
      downloadUrl={storedKey === undefined ? null : `${chosenUrl}?download`}
      dragging={dragging}
      // Errors name the file they are about.
      error={
        error &&
        (fileName
          ? t('fileInput.errorFor', { name: fileName, message: t(error.key, error.values ?? {}) })
          : t(error.key, error.values ?? {}))
      }
      description={description}
      disabled={disabled}
      preview={preview}
      previewFile={chosenFile}
      previewUrl={chosenUrl}
      labels={{
        upload: t(variant === 'button' ? 'fileInput.uploadButton' : 'fileInput.upload'),
        dragAndDrop: t('fileInput.dragAndDrop'),
        remove: t('fileInput.remove'),
        download: t('fileInput.download'),
        checking: t('fileInput.checking'),
      }}
      onSelect={(next) => actor.send({ type: 'SELECT', file: next })}
      onDragEnter={() => actor.send({ type: 'DRAG_ENTER' })}
      onDragLeave={() => actor.send({ type: 'DRAG_LEAVE' })}
      onRemove={() => actor.send({ type: 'REMOVE' })}
    />
  );
}
