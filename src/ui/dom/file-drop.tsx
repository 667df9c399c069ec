import {
  useCallback,
  useEffect,
  useId,
  useRef,
  type ChangeEvent,
  type ClipboardEvent,
  type DragEvent,
} from 'react';
import { useDrop } from 'react-aria-components';
import { Spinner } from './spinner';

/** The control's wording, already translated. */
interface FileDropLabels {
  /** The button that opens the file dialog: "Upload a file". */
  upload: string;
  /** Beside it in the drop area: "or drag and drop". */
  dragAndDrop: string;
  remove: string;
  /** The stored file's download link. */
  download: string;
  /** While the chosen file is being checked. */
  checking: string;
}

/** What the field shows: the prompt, a check in progress, the chosen file, or the prompt with an error. */
type FileDropStatus = 'empty' | 'validating' | 'chosen' | 'invalid';

export interface FileDropProps {
  label: string;
  /** Accepted content types with their extensions: what the file dialog offers first. */
  accept: Partial<Record<string, string[]>>;
  status: FileDropStatus;
  /** The chosen file's name (or the stored file's); shown when chosen. */
  fileName: string | null;
  /** Its size, already formatted ("1.1 MB"), when known. */
  fileSize?: string | null | undefined;
  /**
   * The stored file's name and size are still being read: the size's line is held (empty) so
   * the field keeps its height when they arrive, and the field says it is busy.
   */
  busy?: boolean | undefined;
  /** Where the stored file downloads under its name; none for a file not yet uploaded. */
  downloadUrl?: string | null | undefined;
  /** A drag is over the drop area: it is highlighted. */
  dragging: boolean;
  /** The error to show under the field (already filtered by "touched or submitted"). */
  error: string | null;
  labels: FileDropLabels;
  /**
   * A file dropped, pasted or picked in the file dialog (the first of several): the drop rules
   * (type, size) are the caller's to apply.
   */
  onSelect: (file: File) => void;
  onDragEnter: () => void;
  onDragLeave: () => void;
  onRemove: () => void;
  /** `button`: only an upload button when empty (no drop area). */
  variant?: 'dropzone' | 'button';
  /** Show an image preview of this size when chosen. */
  preview?: { width: number; height: number } | undefined;
  /** The chosen image, previewed through an object URL. */
  previewFile?: File | null;
  /** The stored image's address, previewed when no file is chosen. */
  previewUrl?: string | null;
  description?: string | undefined;
  disabled?: boolean | undefined;
}

/** The file dialog's `accept`: every content type and extension, `image/png,.png`. */
const acceptAttribute = (accept: FileDropProps['accept']) =>
  Object.entries(accept)
    .flatMap(([type, extensions]) => [type, ...(extensions ?? [])])
    .join(',');

/** Out of sight and out of the layout; the upload button opens it. */
const HIDDEN_INPUT = {
  border: 0,
  display: 'block',
  height: 0,
  margin: 0,
  opacity: 0,
  overflow: 'hidden',
  padding: 0,
  width: 0,
} as const;

/**
 * A file field: a drop area with an upload button, or the chosen file with Remove. The hidden
 * input (named by the label) and the buttons carry the error through aria-invalid and
 * aria-describedby, and the error is announced as an alert. Files come dropped on the area
 * (React Aria's useDrop), pasted while focus is in it, or from the file dialog. The area adds
 * no tab stop of its own (React Aria's DropZone would add a hidden drop button): the upload
 * button is the one way in by keyboard.
 */
export function FileDrop(props: FileDropProps) {
  const { status, labels, error, dragging, disabled = false, variant = 'dropzone' } = props;
  const id = useId();
  const inputId = `${id}-input`;
  const nameId = `${id}-name`;
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy =
    [props.description && descriptionId, error && errorId].filter(Boolean).join(' ') || undefined;
  const invalid = error ? true : undefined;

  const { onSelect } = props;
  const fieldRef = useRef<HTMLDivElement>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // Only a drag that carries files is taken (not text or a link): the browser says so when the
  // drag enters, before React Aria asks for the drop operation.
  const carriesFiles = useRef(false);
  const { dropProps } = useDrop({
    ref: areaRef,
    isDisabled: disabled || variant === 'button',
    getDropOperation: () => (carriesFiles.current ? 'copy' : 'cancel'),
    onDropEnter: props.onDragEnter,
    onDropExit: props.onDragLeave,
  });
  const onDragEnter = (event: DragEvent<HTMLDivElement>) => {
    carriesFiles.current = event.dataTransfer.types.includes('Files');
    dropProps.onDragEnter?.(event);
  };
  // The dropped files are read from the drop itself: React Aria's drop items skip a file
  // without a file system entry (an image dragged out of another page).
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    const [file] = event.dataTransfer.files;
    dropProps.onDrop?.(event);
    if (file && !disabled && variant !== 'button') onSelect(file);
  };
  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    const [file] = event.clipboardData.files;
    if (disabled || !file) return;
    event.preventDefault();
    onSelect(file);
  };
  const onChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const [file] = event.target.files ?? [];
    if (file) onSelect(file);
  };
  // A file dropped beside the area would open in the tab in place of the form: the page
  // takes no drop of its own while the field is there.
  useEffect(() => {
    const refuse = (event: globalThis.DragEvent) => {
      if (!event.defaultPrevented) event.preventDefault();
    };
    document.addEventListener('dragover', refuse);
    document.addEventListener('drop', refuse);
    return () => {
      document.removeEventListener('dragover', refuse);
      document.removeEventListener('drop', refuse);
    };
  }, []);

  const chosen = status === 'chosen';
  const actionRef = useRef<HTMLButtonElement>(null);
  const shownStatus = useRef(status);
  // The focused button goes when the field changes (Upload → Remove and back): keyboard users
  // keep their place on the button that replaced it.
  useEffect(() => {
    if (shownStatus.current === status) return;
    shownStatus.current = status;
    // The input still holds the file it last took, and a browser fires no change for the same
    // file chosen again: once the field lets go of it (removed, rejected, a discarded form),
    // the input forgets it too.
    if (status === 'empty' || status === 'invalid') {
      const input = fieldRef.current?.querySelector<HTMLInputElement>('input[type="file"]');
      if (input) input.value = '';
    }
    const focused = document.activeElement;
    if (focused === document.body || fieldRef.current?.contains(focused)) {
      actionRef.current?.focus();
    }
  }, [status]);
  const showPreview = chosen && props.preview !== undefined;
  return (
    <div
      className="field file-drop"
      data-variant={variant}
      ref={fieldRef}
      aria-busy={props.busy || undefined}
    >
      <label htmlFor={inputId}>{props.label}</label>
      <div
        {...dropProps}
        ref={areaRef}
        role="presentation"
        className="file-drop-area"
        data-dragging={dragging || undefined}
        data-invalid={invalid}
        data-chosen={chosen || undefined}
        data-disabled={disabled || undefined}
        aria-disabled={disabled || undefined}
        onDragEnter={onDragEnter}
        onDrop={onDrop}
        onPaste={onPaste}
      >
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept={acceptAttribute(props.accept)}
          tabIndex={-1}
          style={HIDDEN_INPUT}
          aria-label={props.label}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          disabled={disabled}
          onChange={onChosen}
        />
        {chosen ? (
          <>
            {showPreview && (
              <Preview
                file={props.previewFile ?? null}
                url={props.previewUrl ?? null}
                alt={props.fileName ?? ''}
                size={props.preview}
              />
            )}
            <span className="file-drop-file">
              {/* One line, the full name on hover: a long name never wraps over three. */}
              <span className="file-drop-name" id={nameId} title={props.fileName ?? undefined}>
                {props.fileName}
              </span>
              {(props.fileSize || props.busy) && (
                <span className="file-drop-size">{props.fileSize || '\u00a0'}</span>
              )}
            </span>
            {props.downloadUrl && (
              <a
                className="button link"
                href={props.downloadUrl}
                download={props.fileName ?? ''}
                aria-describedby={nameId}
              >
                {labels.download}
              </a>
            )}
            <button
              ref={actionRef}
              type="button"
              className="button"
              disabled={disabled}
              aria-describedby={nameId}
              onClick={props.onRemove}
            >
              {labels.remove}
            </button>
          </>
        ) : status === 'validating' ? (
          <span className="file-drop-status" role="status">
            <Spinner /> {labels.checking}
          </span>
        ) : (
          <>
            <button
              ref={actionRef}
              type="button"
              className={variant === 'button' ? 'button' : 'button link'}
              disabled={disabled}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onClick={() => inputRef.current?.click()}
            >
              {labels.upload}
            </button>
            {variant === 'dropzone' && <span className="file-drop-hint">{labels.dragAndDrop}</span>}
            {/* A rejected file is still the form's value (its error blocks a save): Remove
                clears both, for a form that is to be saved without this file. */}
            {status === 'invalid' && (
              <button
                type="button"
                className="button file-drop-remove"
                disabled={disabled}
                onClick={props.onRemove}
              >
                {labels.remove}
              </button>
            )}
          </>
        )}
      </div>
      {props.description && (
        <p className="field-description" id={descriptionId}>
          {props.description}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface PreviewProps {
  file: File | null;
  url: string | null;
  alt: string;
  size: { width: number; height: number } | undefined;
}

/** The chosen image at a fixed size; a chosen file's object URL lives as long as the image. */
function Preview({ file, url, alt, size }: PreviewProps) {
  // React 19 runs the returned cleanup when the image goes or the file changes.
  const attach = useCallback(
    (image: HTMLImageElement | null) => {
      if (!image || !file) return undefined;
      const source = URL.createObjectURL(file);
      image.src = source;
      return () => URL.revokeObjectURL(source);
    },
    [file],
  );
  if (file && !file.type.startsWith('image/')) return null;
  if (!file && !url) return null;
  return (
    <img
      className="file-drop-preview"
      ref={file ? attach : undefined}
      src={file ? undefined : (url ?? undefined)}
      alt={alt}
      width={size?.width}
      height={size?.height}
    />
  );
}
