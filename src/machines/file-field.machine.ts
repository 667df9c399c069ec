/**
 * One file upload field (spec §4 "File upload control", §5 file rules and drop area, §8 file
 * errors). Empty (highlighted while a drag is over it), validating (the file's header checked
 * by the `validateFile` actor; a newer selection cancels it), chosen (a valid file, or the
 * stored address of the current one), or invalid (the last selection's error, with the upload
 * prompt still offered). Every outcome the form must store is emitted as CHANGED.
 */
import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { track } from '../api/analytics';
import type { UploadKind } from '../../contract/schemas';
import { UPLOAD_RULES, type UploadRule } from '../../core/files/rules';
import { checkDropRules, validateFileContent, type FileError } from '../../core/files/validate';

export interface FileFieldInput {
  kind: UploadKind;
  /** The form's XFile: validated on start without marking the field touched. */
  file?: File | null;
  /** The form's XUrl: a stored file counts as chosen. */
  url?: string | null;
}

export interface FileFieldContext {
  kind: UploadKind;
  rule: UploadRule;
  /** The last file chosen, valid or not (the invalid one stays so the form can report it). */
  file: File | null;
  url: string | null;
  error: FileError | null;
  /** The user chose or removed a file: errors show from now on (spec §5). */
  touched: boolean;
}

export type FileFieldEvent =
  | { type: 'DRAG_ENTER' }
  | { type: 'DRAG_LEAVE' }
  /**
   * A file dropped or picked in the file dialog: one that breaks the drop rules (type, size)
   * is refused at once, any other is checked.
   */
  | { type: 'SELECT'; file: File }
  | { type: 'REMOVE' }
  /** The form's value changed from outside (reset, a loaded record): adopted, not tracked. */
  | { type: 'SYNC'; file: File | null; url: string | null };

/** The value the form stores: the file (null once removed) and its error. */
export type FileFieldEmitted = { type: 'CHANGED'; file: File | null; error: FileError | null };

export interface ValidateFileInput {
  file: File;
  rule: UploadRule;
}

/** The name shown for a stored file: the last path segment of its address. */
export function fileNameOfUrl(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const segment = path.replace(/\/+$/, '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment) || url;
  } catch {
    return segment || url;
  }
}

const errorOf = (error: unknown): FileError => ({
  key: 'fileInput.corrupt',
  detail: error instanceof Error ? error.message : String(error),
});

export const fileFieldMachine = setup({
  types: {
    context: {} as FileFieldContext,
    events: {} as FileFieldEvent,
    input: {} as FileFieldInput,
    emitted: {} as FileFieldEmitted,
  },
  actors: {
    /** The size and type rules, then the header rules (spec §5); null when the file passes. */
    validateFile: fromPromise<FileError | null, ValidateFileInput>(
      async ({ input }) =>
        checkDropRules(input.file, input.rule) ??
        (await validateFileContent(input.file, input.rule)),
    ),
  },
  actions: {
    choose: assign(({ event }) => {
      assertEvent(event, 'SELECT');
      return { file: event.file, error: null, touched: true };
    }),
    refuse: assign(({ context, event }) => {
      assertEvent(event, 'SELECT');
      return { error: checkDropRules(event.file, context.rule) };
    }),
    takeResult: assign((_, params: { error: FileError | null }) => ({ error: params.error })),
    adopt: assign(({ event }) => {
      assertEvent(event, 'SYNC');
      return { file: event.file, url: event.url, error: null };
    }),
    clear: assign({ file: null, url: null, error: null, touched: true }),
    emitChanged: emit(({ context }) => ({
      type: 'CHANGED' as const,
      file: context.file,
      error: context.error,
    })),
    // Spec §4 analytics: the kind, size and error key only, never a name or content.
    trackSelected: ({ context }) => {
      track('file selected', { kind: context.kind, size: context.file?.size ?? 0 });
    },
    trackError: ({ context }) => {
      track('file error', {
        kind: context.kind,
        size: context.file?.size ?? 0,
        error: context.error?.key ?? null,
      });
    },
    trackRemoved: ({ context }) => {
      track('file removed', { kind: context.kind });
    },
  },
  guards: {
    /** The check found nothing wrong. */
    passed: (_, params: { error: FileError | null }) => params.error === null,
    hasFile: ({ context }) => context.file !== null,
    hasUrl: ({ context }) => context.url !== null,
    hasValue: ({ context }) =>
      context.file !== null || context.url !== null || context.error !== null,
    /** The file's name, type or size alone refuse it: its bytes need no reading. */
    breaksDropRules: ({ context, event }) => {
      assertEvent(event, 'SELECT');
      return checkDropRules(event.file, context.rule) !== null;
    },
    differs: ({ context, event }) => {
      assertEvent(event, 'SYNC');
      return event.file !== context.file || event.url !== context.url;
    },
  },
}).createMachine({
  id: 'fileField',
  context: ({ input }) => ({
    kind: input.kind,
    rule: UPLOAD_RULES[input.kind],
    file: input.file ?? null,
    url: input.url ?? null,
    error: null,
    touched: false,
  }),
  initial: 'init',
  on: {
    SELECT: [
      {
        guard: 'breaksDropRules',
        target: '.invalid',
        actions: ['choose', 'trackSelected', 'refuse', 'trackError', 'emitChanged'],
      },
      // A newer selection re-enters validating: the older check is stopped and its answer
      // dropped.
      { target: '.validating', reenter: true, actions: ['choose', 'trackSelected'] },
    ],
    REMOVE: {
      guard: 'hasValue',
      target: '.empty',
      actions: ['clear', 'trackRemoved', 'emitChanged'],
    },
    SYNC: { guard: 'differs', target: '.init', actions: 'adopt' },
  },
  states: {
    /** Shows what the form holds: a file is checked first, a stored address is chosen. */
    init: {
      always: [
        { guard: 'hasFile', target: 'validating' },
        { guard: 'hasUrl', target: 'chosen' },
        { target: 'empty' },
      ],
    },
    /** The upload prompt; highlighted while a drag is over the drop area. */
    empty: {
      initial: 'idle',
      states: {
        idle: { on: { DRAG_ENTER: 'dragging' } },
        dragging: { on: { DRAG_LEAVE: 'idle' } },
      },
    },
    validating: {
      invoke: {
        src: 'validateFile',
        // Entered only with a file: SELECT, or init with a file.
        input: ({ context }) => ({ file: context.file as File, rule: context.rule }),
        onDone: [
          {
            guard: { type: 'passed', params: ({ event }) => ({ error: event.output }) },
            target: 'chosen',
            actions: [{ type: 'takeResult', params: { error: null } }, 'emitChanged'],
          },
          {
            target: 'invalid',
            actions: [
              { type: 'takeResult', params: ({ event }) => ({ error: event.output }) },
              'trackError',
              'emitChanged',
            ],
          },
        ],
        // A validator must answer, not throw; if it does, the file is reported as unreadable.
        onError: {
          target: 'invalid',
          actions: [
            { type: 'takeResult', params: ({ event }) => ({ error: errorOf(event.error) }) },
            'trackError',
            'emitChanged',
          ],
        },
      },
    },
    /** A valid file, or the stored file of the record: its name and Remove. */
    chosen: {},
    /** The upload prompt with the last selection's error. */
    invalid: {
      initial: 'idle',
      states: {
        idle: { on: { DRAG_ENTER: 'dragging' } },
        dragging: { on: { DRAG_LEAVE: 'idle' } },
      },
    },
  },
});

export type FileFieldSnapshot = SnapshotFrom<typeof fileFieldMachine>;

/** What the control shows. */
export type UploadView = 'empty' | 'validating' | 'chosen' | 'invalid';

export const selectView = (snapshot: FileFieldSnapshot): UploadView => {
  if (snapshot.matches('validating')) return 'validating';
  if (snapshot.matches('chosen')) return 'chosen';
  if (snapshot.matches('invalid')) return 'invalid';
  return 'empty';
};

export const selectIsDragging = (snapshot: FileFieldSnapshot) =>
  snapshot.matches({ empty: 'dragging' }) || snapshot.matches({ invalid: 'dragging' });

/** The chosen file's name, or the stored file's, or null. */
export const selectFileName = (snapshot: FileFieldSnapshot): string | null => {
  const { file, url } = snapshot.context;
  if (file) return file.name;
  return url === null ? null : fileNameOfUrl(url);
};

/** Spec §5: the error shows only once the field was touched or the form submitted. */
export const selectVisibleError = (
  snapshot: FileFieldSnapshot,
  submitted: boolean,
): FileError | null => (snapshot.context.touched || submitted ? snapshot.context.error : null);
