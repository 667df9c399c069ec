/**
 * Saving an entity form (assets and cage meshes with their file fields; a tag's name; an asset's
 * position in an application): every newly chosen file is uploaded first, one at a time with its
 * progress, then the entity is created or patched with the stored addresses (form naming rule:
 * field X's file becomes `XUrl`). A failure keeps the request, so RETRY resumes where it
 * stopped: files already stored are not sent again.
 *
 * A change of an existing entity is based on the version the form was loaded from
 * (`baseVersion`, sent as If-Match). When someone else changed one of its fields since, the
 * server answers 409 EDIT_CONFLICT and the editor waits in `conflict`: RESOLVE names the
 * fields where the user takes theirs (left out of the body), the others keep the user's value,
 * and the change is sent again based on the current version.
 */
import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { ApiErrorInfo } from '../api/error-info';
import { toApiError } from '../api/errors';
import { changeApplicationName, changeTagName } from '../api/mutations';
import type { ApiScope } from '../../contract/paths';
import {
  editConflictErrorSchema,
  type EditConflictError,
  type UploadKind,
  type UploadResult,
} from '../../contract/schemas';
import { uploadFile } from '../api/uploads';

/**
 * What is saved: a new or existing asset (possibly from a template) or cage mesh, a tag's or an
 * application's name,
 * or the position of asset `id` in application `applicationId`.
 */
export type SaveTarget =
  | { entity: 'asset'; id?: string; templateId?: string; scope?: ApiScope; baseVersion?: number }
  | { entity: 'cageMesh'; id?: string; scope?: ApiScope; baseVersion?: number }
  | { entity: 'tag'; id: string; baseVersion?: number }
  | { entity: 'application'; id: string; baseVersion?: number }
  | { entity: 'applicationAsset'; id: string; applicationId: string; baseVersion?: number };

/** One file field with a newly chosen file. */
export interface PendingFile {
  /** The form field X; its stored address goes to `XUrl`. */
  field: string;
  kind: UploadKind;
  file: File;
}

export interface SaveRequest {
  target: SaveTarget;
  /** The body without the new files' addresses (kept addresses and cleared ones included). */
  values: Record<string, unknown>;
  files: PendingFile[];
}

/** A file of this editor that the server already stores. */
export interface StoredFile {
  field: string;
  file: File;
  url: string;
}

/** An entity as the save answers it; only the id is read here. */
export interface SavedEntity {
  id: string;
  /** Set by the single-field targets when they stored a change (see renameTo). */
  changed?: boolean;
}

export interface EntityEditorContext {
  request: SaveRequest | null;
  stored: StoredFile[];
  /** Upload progress per field, 0 to 1. */
  progress: Record<string, number>;
  error: ApiErrorInfo | null;
  /** Which step failed, for the message. */
  failedStep: 'upload' | 'save' | null;
  saved: SavedEntity | null;
  /** The fields someone else changed since the base version (state `conflict`). */
  conflict: EditConflictError | null;
}

export type EntityEditorEvent =
  | { type: 'SAVE'; request: SaveRequest }
  | { type: 'RETRY' }
  /** Sends the conflicting change again; `theirs` are the fields where the user takes theirs. */
  | { type: 'RESOLVE'; theirs: readonly string[] }
  | { type: 'UPLOAD_PROGRESS'; field: string; fraction: number };

export type EntityEditorEmitted = { type: 'SAVED'; entity: SavedEntity };

export interface UploadInput {
  kind: UploadKind;
  file: File;
  onProgress: (fraction: number) => void;
}

export interface SaveInput {
  target: SaveTarget;
  body: Record<string, unknown>;
}

/** `icon` -> `iconUrl`. */
export const urlField = (field: string) => `${field}Url`;

const storedUrl = (stored: readonly StoredFile[], pending: PendingFile) =>
  stored.find((entry) => entry.field === pending.field && entry.file === pending.file)?.url;

/** The first file of the request that is not stored yet. */
export function nextUpload(context: EntityEditorContext): PendingFile | undefined {
  return context.request?.files.find((pending) => storedUrl(context.stored, pending) === undefined);
}

/** The request body with every new file's stored address under `XUrl`. */
export function bodyOf(request: SaveRequest, stored: readonly StoredFile[]) {
  const body: Record<string, unknown> = { ...request.values };
  for (const pending of request.files) body[urlField(pending.field)] = storedUrl(stored, pending);
  return body;
}

/** The body of a 409 EDIT_CONFLICT answer, if `error` is one. */
function editConflictOf(error: unknown): EditConflictError | undefined {
  const { code, data } = toApiError(error);
  if (code !== 'EDIT_CONFLICT') return undefined;
  const parsed = editConflictErrorSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Creates or patches a target (the cache follows the answer). The save actor's default saves the
 * targets of src/api (a tag's or an application's name); a feature saves its own and passes its
 * saver to useEntitySave (features/assets/save-asset.ts, features/cage-meshes/save-cage-mesh.ts).
 */
export type SaveEntity = (input: SaveInput) => Promise<SavedEntity>;

const saveEntity: SaveEntity = ({ target, body }) => {
  switch (target.entity) {
    case 'tag':
    case 'application':
      return renameTo(target, body);
    case 'asset':
    case 'applicationAsset':
    case 'cageMesh':
      return Promise.reject(new Error(`Its feature saves ${target.entity} (useEntitySave)`));
  }
};

/**
 * The single-field targets send nothing when the user took theirs (the stored value stays); a
 * saved entity without `changed` is one of those.
 */
async function renameTo(target: TargetOf<'tag' | 'application'>, body: SaveInput['body']) {
  if (typeof body.name !== 'string') return { id: target.id };
  const rename = target.entity === 'tag' ? changeTagName : changeApplicationName;
  const saved = await rename(target.id, body.name, target.baseVersion);
  return { ...saved, changed: true };
}

export type TargetOf<E extends SaveTarget['entity']> = Extract<SaveTarget, { entity: E }>;

export const entityEditorMachine = setup({
  types: {
    context: {} as EntityEditorContext,
    events: {} as EntityEditorEvent,
    emitted: {} as EntityEditorEmitted,
  },
  actors: {
    upload: fromPromise<UploadResult, UploadInput>(({ input, signal }) =>
      uploadFile(input.kind, input.file, {
        signal,
        onProgress: ({ fraction }) => input.onProgress(fraction),
      }),
    ),
    save: fromPromise<SavedEntity, SaveInput>(({ input }) => saveEntity(input)),
  },
  actions: {
    start: assign(({ context, event }) => {
      assertEvent(event, 'SAVE');
      // Stored files stay known for as long as the form holds them.
      const files = new Set(event.request.files.map((pending) => pending.file));
      return {
        request: event.request,
        stored: context.stored.filter((entry) => files.has(entry.file)),
        progress: {},
        error: null,
        failedStep: null,
      };
    }),
    clearError: assign({ error: null, failedStep: null }),
    keepConflict: assign((_, params: { conflict: EditConflictError }) => ({
      conflict: params.conflict,
    })),
    resolve: assign(({ context, event }) => {
      assertEvent(event, 'RESOLVE');
      const { request, conflict } = context;
      if (!request || !conflict) return {};
      const values = Object.fromEntries(
        Object.entries(request.values).filter(([field]) => !event.theirs.includes(field)),
      );
      const target = { ...request.target, baseVersion: conflict.version };
      return { request: { ...request, target, values }, conflict: null };
    }),
    setProgress: assign(({ context, event }) => {
      assertEvent(event, 'UPLOAD_PROGRESS');
      return { progress: { ...context.progress, [event.field]: event.fraction } };
    }),
    storeUpload: assign(({ context }, params: { url: string }) => {
      const pending = nextUpload(context);
      if (!pending) return {};
      return {
        stored: [...context.stored, { field: pending.field, file: pending.file, url: params.url }],
        progress: { ...context.progress, [pending.field]: 1 },
      };
    }),
    fail: assign((_, params: { error: unknown; step: 'upload' | 'save' }) => ({
      error: toApiError(params.error).toJSON(),
      failedStep: params.step,
    })),
    keepSaved: assign((_, params: { entity: SavedEntity }) => ({ saved: params.entity })),
    // A saved entity now carries the files: the next save starts from the form's new state.
    forgetRequest: assign({ request: null, stored: [], progress: {} }),
    emitSaved: emit((_, params: { entity: SavedEntity }) => ({
      type: 'SAVED' as const,
      entity: params.entity,
    })),
  },
  guards: {
    hasUpload: ({ context }) => nextUpload(context) !== undefined,
  },
}).createMachine({
  id: 'entityEditor',
  context: {
    request: null,
    stored: [],
    progress: {},
    error: null,
    failedStep: null,
    saved: null,
    conflict: null,
  },
  initial: 'idle',
  states: {
    idle: {
      on: { SAVE: { target: 'working', actions: 'start' } },
    },
    working: {
      initial: 'next',
      on: { UPLOAD_PROGRESS: { actions: 'setProgress' } },
      states: {
        next: { always: [{ guard: 'hasUpload', target: 'uploading' }, { target: 'saving' }] },
        uploading: {
          invoke: {
            src: 'upload',
            input: ({ context, self }): UploadInput => {
              const pending = nextUpload(context)!;
              return {
                kind: pending.kind,
                file: pending.file,
                onProgress: (fraction) =>
                  self.send({ type: 'UPLOAD_PROGRESS', field: pending.field, fraction }),
              };
            },
            onDone: {
              target: 'next',
              actions: { type: 'storeUpload', params: ({ event }) => ({ url: event.output.url }) },
            },
            onError: {
              target: '#entityEditor.failed',
              actions: {
                type: 'fail',
                params: ({ event }) => ({ error: event.error, step: 'upload' as const }),
              },
            },
          },
        },
        saving: {
          invoke: {
            src: 'save',
            input: ({ context }): SaveInput => ({
              target: context.request!.target,
              body: bodyOf(context.request!, context.stored),
            }),
            onDone: {
              target: '#entityEditor.saved',
              actions: [
                { type: 'keepSaved', params: ({ event }) => ({ entity: event.output }) },
                'forgetRequest',
                { type: 'emitSaved', params: ({ event }) => ({ entity: event.output }) },
              ],
            },
            onError: [
              {
                guard: ({ event }) => editConflictOf(event.error) !== undefined,
                target: '#entityEditor.conflict',
                actions: {
                  type: 'keepConflict',
                  params: ({ event }) => ({ conflict: editConflictOf(event.error)! }),
                },
              },
              {
                target: '#entityEditor.failed',
                actions: {
                  type: 'fail',
                  params: ({ event }) => ({ error: event.error, step: 'save' as const }),
                },
              },
            ],
          },
        },
      },
    },
    conflict: {
      on: {
        RESOLVE: { target: 'working', actions: 'resolve' },
        SAVE: { target: 'working', actions: ['start', assign({ conflict: null })] },
      },
    },
    saved: {
      on: { SAVE: { target: 'working', actions: 'start' } },
    },
    failed: {
      on: {
        RETRY: { target: 'working', actions: 'clearError' },
        SAVE: { target: 'working', actions: 'start' },
      },
    },
  },
});

export type EntityEditorMachine = typeof entityEditorMachine;
export type EntityEditorSnapshot = SnapshotFrom<EntityEditorMachine>;

export const selectIsSaving = (snapshot: EntityEditorSnapshot) => snapshot.matches('working');
export const selectIsSaved = (snapshot: EntityEditorSnapshot) => snapshot.matches('saved');
export const selectProgress = (snapshot: EntityEditorSnapshot) => snapshot.context.progress;
export const selectError = (snapshot: EntityEditorSnapshot) => snapshot.context.error;
export const selectFailedStep = (snapshot: EntityEditorSnapshot) => snapshot.context.failedStep;
export const selectConflict = (snapshot: EntityEditorSnapshot) => snapshot.context.conflict;
export const selectRequest = (snapshot: EntityEditorSnapshot) => snapshot.context.request;
export const selectStored = (snapshot: EntityEditorSnapshot) => snapshot.context.stored;
