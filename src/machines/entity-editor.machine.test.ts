/**
 * Model-based tests (src/machines/testing/path-tests.ts): a small abstract model of saving an
 * asset or cage mesh form (spec: each new file is uploaded, then the entity is saved with the
 * stored addresses; a retry skips files already stored) generates paths; each drives the real
 * machine with fake upload and save actors whose calls the path's events settle, and together
 * they must reach every state and transition of the real machine. A focused test follows for
 * what the model leaves to the real save actor: the targets it leaves to their features' savers
 * (their tests: features/assets/save-asset.mocked.test.ts, features/cage-meshes/save-cage-mesh.mocked.test.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import { ApiError } from '../api/errors';
import type { UploadResult } from '../../contract/schemas';
import {
  entityEditorMachine,
  selectConflict,
  selectError,
  selectFailedStep,
  selectIsSaved,
  selectIsSaving,
  selectProgress,
  type EntityEditorEmitted,
  type PendingFile,
  type SavedEntity,
  type SaveInput,
  type SaveRequest,
  type SaveTarget,
  type UploadInput,
} from './entity-editor.machine';
import { describeMachinePaths, pathSuite, type PathTools } from './testing/path-tests';
import { deferredActor, liveCall, type Deferred } from './testing/deferred';

// ---------------------------------------------------------------- the form's requests

const MODEL = new File(['glTF'], 'avatar.glb', { type: 'model/gltf-binary' });
const ICON = new File(['png'], 'icon.png', { type: 'image/png' });
const OTHER_ICON = new File(['png2'], 'other.png', { type: 'image/png' });

type RequestKind = 'both' | 'bare' | 'swap';

/** The saves a form makes: both files new, no new file, or the icon replaced by another file. */
const REQUESTS: Record<RequestKind, SaveRequest> = {
  both: {
    target: { entity: 'asset' },
    values: { name: 'Jacket', type: 'top', gender: 'unisex', textureUrl: null },
    files: [
      { field: 'model', kind: 'model', file: MODEL },
      { field: 'icon', kind: 'icon', file: ICON },
    ],
  },
  bare: {
    target: { entity: 'asset', id: 'a1', scope: 'private' },
    values: { name: 'Coat', iconUrl: '/files/kept.png' },
    files: [],
  },
  swap: {
    target: { entity: 'cageMesh', id: 'c1' },
    values: { name: 'Cage' },
    files: [
      { field: 'model', kind: 'model', file: MODEL },
      { field: 'icon', kind: 'icon', file: OTHER_ICON },
    ],
  },
};

/** The stored address the fake upload answers for a file. */
const urlOf = (file: File) => `/files/${file.name}`;
/** The entity the fake save answers for a target. */
const savedOf = (target: SaveTarget): SavedEntity => ({ id: target.id ?? 'new-1' });

const UPLOAD_FAILURE = new ApiError({ status: 413, code: 'FILE_TOO_LARGE', message: 'Too large' });
const SAVE_FAILURE = new ApiError({ status: 409, code: 'ASSET_LOCKED', message: 'Locked' });
/** Someone else renamed the entity since the version the form was based on. */
const CONFLICT = {
  status: 409,
  code: 'EDIT_CONFLICT',
  message: 'Changed by someone else since version 1: name',
  version: 7,
  conflicts: [
    {
      field: 'name',
      current: 'Theirs',
      changedBy: { id: 'u2', email: 'dev@avatar.studio' },
      changedAt: '2030-01-01T00:00:00.000Z',
    },
  ],
};
const CONFLICT_FAILURE = new ApiError({ ...CONFLICT, data: CONFLICT });
/** The user keeps theirs for these fields when resolving the conflict. */
const THEIRS = ['name'];

// ---------------------------------------------------------------- the fake actors

function harness(tools: PathTools) {
  const uploads: Deferred<UploadInput, UploadResult>[] = [];
  const saves: Deferred<SaveInput, SavedEntity>[] = [];
  const actor = createActor(
    entityEditorMachine.provide({
      actors: { upload: deferredActor(uploads), save: deferredActor(saves) },
    }),
    tools,
  );
  const emitted: EntityEditorEmitted[] = [];
  actor.on('SAVED', (event) => emitted.push(event));
  actor.start();
  return {
    actor,
    uploads,
    saves,
    emitted,
    snapshot: () => actor.getSnapshot(),
    live: () => [...uploads, ...saves].filter((call) => !call.settled),
    currentUpload: () => liveCall(uploads),
    currentSave: () => liveCall(saves),
  };
}
type Harness = ReturnType<typeof harness>;

// ---------------------------------------------------------------- the abstract model

interface EditorModel {
  /** The request of the last SAVE. */
  request: RequestKind | null;
  /** Files the server stores for this request, as `field:name`. */
  stored: string[];
  /** Upload progress per field, 0 to 1. */
  progress: Record<string, number>;
  failedStep: 'upload' | 'save' | null;
  /** The request was sent again after a conflict: based on its version, without THEIRS. */
  resolved: boolean;
}

type EditorEvent = {
  type:
    | 'SAVE_BOTH'
    | 'SAVE_BARE'
    | 'SAVE_SWAP'
    | 'PROGRESS'
    | 'UPLOAD_OK'
    | 'UPLOAD_FAIL'
    | 'SAVE_OK'
    | 'SAVE_FAIL'
    | 'SAVE_CONFLICT'
    | 'RESOLVE'
    | 'RETRY';
};

const keyOf = ({ field, file }: PendingFile) => `${field}:${file.name}`;

/** The first file of the request that the server does not store yet. */
const nextFile = (kind: RequestKind | null, stored: readonly string[]) =>
  kind === null ? undefined : REQUESTS[kind].files.find((file) => !stored.includes(keyOf(file)));

/** A new SAVE keeps what is stored of the files it still holds; nothing else carries over. */
const kept = (context: EditorModel, kind: RequestKind) =>
  context.stored.filter((key) => REQUESTS[kind].files.some((file) => keyOf(file) === key));

const startSave = (kind: RequestKind) => {
  const start = assign<EditorModel, EditorEvent, undefined, EditorEvent, never>(({ context }) => ({
    request: kind,
    stored: kept(context, kind),
    progress: {},
    failedStep: null,
    resolved: false,
  }));
  return [
    {
      guard: ({ context }: { context: EditorModel }) =>
        nextFile(kind, kept(context, kind)) !== undefined,
      target: '#editorModel.uploading',
      actions: start,
    },
    { target: '#editorModel.saving', actions: start },
  ];
};

const saves = {
  SAVE_BOTH: startSave('both'),
  SAVE_BARE: startSave('bare'),
  SAVE_SWAP: startSave('swap'),
};

const storeUpload = assign<EditorModel, EditorEvent, undefined, EditorEvent, never>(
  ({ context }) => {
    const file = nextFile(context.request, context.stored) as PendingFile;
    return {
      stored: [...context.stored, keyOf(file)],
      progress: { ...context.progress, [file.field]: 1 },
    };
  },
);

const editorModel = setup({
  types: { context: {} as EditorModel, events: {} as EditorEvent },
  guards: {
    hasUpload: ({ context }) => nextFile(context.request, context.stored) !== undefined,
    uploadsMore: ({ context }) =>
      REQUESTS[context.request!].files.length > context.stored.length + 1,
    noProgress: ({ context }) =>
      context.progress[nextFile(context.request, context.stored)!.field] === undefined,
  },
}).createMachine({
  id: 'editorModel',
  context: { request: null, stored: [], progress: {}, failedStep: null, resolved: false },
  initial: 'idle',
  states: {
    idle: { on: saves },
    uploading: {
      on: {
        PROGRESS: {
          guard: 'noProgress',
          actions: assign(({ context }) => ({
            progress: {
              ...context.progress,
              [nextFile(context.request, context.stored)!.field]: 0.5,
            },
          })),
        },
        UPLOAD_OK: [
          { guard: 'uploadsMore', target: 'uploading', actions: storeUpload },
          { target: 'saving', actions: storeUpload },
        ],
        UPLOAD_FAIL: { target: 'failed', actions: assign({ failedStep: 'upload' }) },
      },
    },
    saving: {
      on: {
        // The saved entity carries the files: the next save starts from the form's new state.
        SAVE_OK: { target: 'saved', actions: assign({ stored: [], progress: {} }) },
        SAVE_FAIL: { target: 'failed', actions: assign({ failedStep: 'save' }) },
        SAVE_CONFLICT: { target: 'conflict' },
      },
    },
    conflict: {
      on: { RESOLVE: { target: 'saving', actions: assign({ resolved: true }) }, ...saves },
    },
    saved: { on: saves },
    failed: {
      on: {
        RETRY: [
          { guard: 'hasUpload', target: 'uploading', actions: assign({ failedStep: null }) },
          { target: 'saving', actions: assign({ failedStep: null }) },
        ],
        ...saves,
      },
    },
  },
});

// ---------------------------------------------------------------- checks and events

type ModelSnapshot = { context: EditorModel };

/**
 * What a save must send: the form's values plus each new file's stored address; after a
 * conflict, based on the current version and without the fields where the user took theirs.
 */
function expectedSave({ request, resolved }: EditorModel): SaveInput {
  const { target, values, files } = REQUESTS[request!];
  const body: Record<string, unknown> = {
    ...values,
    ...Object.fromEntries(files.map(({ field, file }) => [`${field}Url`, urlOf(file)])),
  };
  if (!resolved) return { target, body };
  for (const field of THEIRS) delete body[field];
  return { target: { ...target, baseVersion: CONFLICT.version }, body };
}

function checks(h: Harness) {
  const busy = (m: EditorModel) => {
    expect(selectIsSaving(h.snapshot())).toBe(true);
    expect(selectProgress(h.snapshot())).toEqual(m.progress);
    expect(selectError(h.snapshot())).toBeNull();
  };
  return {
    idle: () => {
      expect(h.snapshot().matches('idle')).toBe(true);
      expect(h.live()).toEqual([]);
    },
    uploading: ({ context: m }: ModelSnapshot) => {
      busy(m);
      expect(h.snapshot().matches({ working: 'uploading' })).toBe(true);
      // Only the first file not stored yet is sent, and nothing is saved meanwhile.
      const next = nextFile(m.request, m.stored) as PendingFile;
      expect(h.currentUpload().input).toMatchObject({ kind: next.kind, file: next.file });
      expect(h.live()).toHaveLength(1);
    },
    saving: ({ context: m }: ModelSnapshot) => {
      busy(m);
      expect(h.snapshot().matches({ working: 'uploading' })).toBe(false);
      expect(h.currentSave().input).toEqual(expectedSave(m));
      expect(h.live()).toHaveLength(1);
    },
    conflict: () => {
      const snapshot = h.snapshot();
      expect(snapshot.matches('conflict')).toBe(true);
      // Each conflicting field with its current value and who changed it, for the form.
      expect(selectConflict(snapshot)).toEqual(CONFLICT);
      expect(selectIsSaving(snapshot)).toBe(false);
      expect(h.live()).toEqual([]);
    },
    saved: ({ context: m }: ModelSnapshot) => {
      const entity = savedOf(REQUESTS[m.request as RequestKind].target);
      expect(selectIsSaved(h.snapshot())).toBe(true);
      expect(h.snapshot().context).toMatchObject({
        saved: entity,
        request: null,
        stored: [],
        progress: {},
        error: null,
      });
      expect(h.emitted.at(-1)).toEqual({ type: 'SAVED', entity });
      expect(h.live()).toEqual([]);
    },
    failed: ({ context: m }: ModelSnapshot) => {
      const snapshot = h.snapshot();
      expect(snapshot.matches('failed')).toBe(true);
      expect(selectFailedStep(snapshot)).toBe(m.failedStep);
      expect(selectError(snapshot)).toEqual(
        (m.failedStep === 'upload' ? UPLOAD_FAILURE : SAVE_FAILURE).toJSON(),
      );
      // The progress stays on screen for the retry.
      expect(selectProgress(snapshot)).toEqual(m.progress);
      expect(h.live()).toEqual([]);
    },
  };
}

function events(h: Harness) {
  const save = (kind: RequestKind) => () => {
    const saved = h.emitted.length;
    h.actor.send({ type: 'SAVE', request: REQUESTS[kind] });
    expect(h.emitted).toHaveLength(saved);
  };
  return {
    SAVE_BOTH: save('both'),
    SAVE_BARE: save('bare'),
    SAVE_SWAP: save('swap'),
    PROGRESS: () => h.currentUpload().input.onProgress(0.5),
    UPLOAD_OK: async () => {
      const { file } = h.currentUpload().input;
      await h.currentUpload().settle({
        ok: { url: urlOf(file), name: file.name, size: file.size, contentType: file.type },
      });
    },
    UPLOAD_FAIL: () => h.currentUpload().settle({ error: UPLOAD_FAILURE }),
    SAVE_OK: async () => {
      const call = h.currentSave();
      await call.settle({ ok: savedOf(call.input.target) });
    },
    SAVE_FAIL: () => h.currentSave().settle({ error: SAVE_FAILURE }),
    SAVE_CONFLICT: () => h.currentSave().settle({ error: CONFLICT_FAILURE }),
    RESOLVE: () => {
      h.actor.send({ type: 'RESOLVE', theirs: THEIRS });
    },
    RETRY: () => {
      h.actor.send({ type: 'RETRY' });
    },
  };
}

describeMachinePaths(entityEditorMachine, {
  suites: [
    pathSuite({
      name: 'saving a form with files (model)',
      model: editorModel,
      system: (tools) => {
        const h = harness(tools);
        return { actor: h.actor, states: checks(h), events: events(h) };
      },
    }),
  ],
});

// ---------------------------------------------------------------- the real save actor

describe('entity editor — which API call saves which target', () => {
  it('an asset or a cage mesh is saved by the saver its feature passes, not by the default', async () => {
    for (const target of [{ entity: 'asset', id: 'a1' }, { entity: 'cageMesh' }] as const) {
      const actor = createActor(entityEditorMachine).start();
      actor.send({ type: 'SAVE', request: { target, values: { name: 'Jacket' }, files: [] } });
      await vi.waitFor(() => expect(selectError(actor.getSnapshot())).not.toBeNull());
      expect(selectFailedStep(actor.getSnapshot())).toBe('save');
    }
  });
});

describe('entity editor — spec rules', () => {
  const start = () => harness({} as PathTools);
  const UPLOADED = (file: File): UploadResult => ({ url: urlOf(file) }) as UploadResult;
  /** A SAVE of both files: the uploads succeed, the save fails. */
  const startWithFailedSave = async () => {
    const h = start();
    h.actor.send({ type: 'SAVE', request: REQUESTS.both });
    await h.currentUpload().settle({ ok: UPLOADED(MODEL) });
    await h.currentUpload().settle({ ok: UPLOADED(ICON) });
    await h.currentSave().settle({ error: SAVE_FAILURE });
    return h;
  };

  it('uploads each new file before saving, then saves the body with their stored addresses', async () => {
    const h = start();
    h.actor.send({ type: 'SAVE', request: REQUESTS.both });
    expect(h.snapshot().matches({ working: 'uploading' })).toBe(true);
    expect(h.currentUpload().input).toMatchObject({ kind: 'model', file: MODEL });
    await h.currentUpload().settle({ ok: UPLOADED(MODEL) });
    expect(h.currentUpload().input).toMatchObject({ kind: 'icon', file: ICON });
    await h.currentUpload().settle({ ok: UPLOADED(ICON) });
    expect(h.currentSave().input.body).toEqual({
      ...REQUESTS.both.values,
      modelUrl: '/files/avatar.glb',
      iconUrl: '/files/icon.png',
    });
  });

  it('a form without new files is saved at once, keeping the addresses it holds', () => {
    const h = start();
    h.actor.send({ type: 'SAVE', request: REQUESTS.bare });
    expect(h.uploads).toEqual([]);
    expect(h.currentSave().input.body).toEqual({ name: 'Coat', iconUrl: '/files/kept.png' });
  });

  it("shows each upload's progress under its field", () => {
    const h = start();
    h.actor.send({ type: 'SAVE', request: REQUESTS.both });
    h.currentUpload().input.onProgress(0.25);
    expect(selectProgress(h.snapshot())).toMatchObject({ model: 0.25 });
  });

  it('a failed upload stops the save, says which step failed, and keeps the request', async () => {
    const h = start();
    h.actor.send({ type: 'SAVE', request: REQUESTS.both });
    await h.currentUpload().settle({ error: UPLOAD_FAILURE });
    expect(selectFailedStep(h.snapshot())).toBe('upload');
    expect(selectError(h.snapshot())?.code).toBe('FILE_TOO_LARGE');
    expect(h.saves).toEqual([]);
    expect(selectIsSaving(h.snapshot())).toBe(false);
  });

  it('Retry after a failed save does not upload a stored file again', async () => {
    const h = await startWithFailedSave();
    expect(selectFailedStep(h.snapshot())).toBe('save');
    h.actor.send({ type: 'RETRY' });
    expect(h.uploads.filter((call) => !call.settled)).toEqual([]);
    expect(h.currentSave().input.body).toMatchObject({ modelUrl: '/files/avatar.glb' });
  });

  it('Retry after a failed upload uploads only the files not stored yet', async () => {
    const h = start();
    h.actor.send({ type: 'SAVE', request: REQUESTS.both });
    await h.currentUpload().settle({ ok: UPLOADED(MODEL) });
    await h.currentUpload().settle({ error: UPLOAD_FAILURE });
    h.actor.send({ type: 'RETRY' });
    expect(h.currentUpload().input.file).toBe(ICON);
  });

  it('a successful save announces the saved entity once and forgets the files it sent', async () => {
    const h = start();
    h.actor.send({ type: 'SAVE', request: REQUESTS.bare });
    await h.currentSave().settle({ ok: { id: 'a1' } });
    expect(selectIsSaved(h.snapshot())).toBe(true);
    expect(h.emitted).toEqual([{ type: 'SAVED', entity: { id: 'a1' } }]);
    expect(h.snapshot().context.stored).toEqual([]);
  });

  it('a file replaced in the form after a failed save is uploaded anew', async () => {
    const h = await startWithFailedSave();
    h.actor.send({ type: 'SAVE', request: { ...REQUESTS.both, files: REQUESTS.swap.files } });
    expect(h.currentUpload().input.file).toBe(OTHER_ICON);
  });
});
