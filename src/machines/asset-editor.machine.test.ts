import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../api/errors';
import type { UploadResult } from '../api/schemas';
import {
  assetEditorMachine,
  bodyOf,
  selectError,
  selectFailedStep,
  selectIsSaved,
  selectProgress,
  type SaveInput,
  type SaveRequest,
  type UploadInput,
} from './asset-editor.machine';

const model = new File(['glTF'], 'avatar.glb', { type: 'model/gltf-binary' });
const icon = new File(['png'], 'icon.png', { type: 'image/png' });

/** Runs `work` as a promise: a throw becomes a rejection. */
const settle = <T>(work: () => T) => new Promise<T>((resolve) => resolve(work()));

const request = (overrides: Partial<SaveRequest> = {}): SaveRequest => ({
  target: { entity: 'asset' },
  values: { name: 'Jacket', type: 'top', gender: 'unisex', textureUrl: null },
  files: [
    { field: 'model', kind: 'model', file: model },
    { field: 'icon', kind: 'icon', file: icon },
  ],
  ...overrides,
});

/** An editor whose uploads and save are scripted; each call can be told to fail once. */
function editor({ failUpload = new Set<string>(), failSave = 0 } = {}) {
  const uploads: string[] = [];
  const saves: SaveInput[] = [];
  let saveFailures = failSave;
  const actor = createActor(
    assetEditorMachine.provide({
      actors: {
        upload: fromPromise<UploadResult, UploadInput>(({ input }) =>
          settle(() => {
            uploads.push(input.file.name);
            input.onProgress(0.5);
            if (failUpload.delete(input.file.name)) {
              throw new ApiError({ status: 413, code: 'FILE_TOO_LARGE', message: 'Too large' });
            }
            return { url: `/files/${input.file.name}`, size: input.file.size, contentType: 'x' };
          }),
        ),
        save: fromPromise<{ id: string }, SaveInput>(({ input }) =>
          settle(() => {
            saves.push(input);
            if (saveFailures > 0) {
              saveFailures -= 1;
              throw new ApiError({ status: 409, code: 'ASSET_LOCKED', message: 'Locked' });
            }
            return { id: 'a1' };
          }),
        ),
      },
    }),
  );
  const saved = vi.fn();
  actor.on('SAVED', saved);
  actor.start();
  return { actor, uploads, saves, saved };
}

const settled = (actor: ReturnType<typeof editor>['actor']) =>
  waitFor(actor, (s) => s.matches('saved') || s.matches('failed'));

describe('asset editor machine', () => {
  it('uploads each new file, then saves with the stored addresses under XUrl', async () => {
    const { actor, uploads, saves, saved } = editor();
    actor.send({ type: 'SAVE', request: request() });
    const snapshot = await settled(actor);

    expect(selectIsSaved(snapshot)).toBe(true);
    expect(uploads).toEqual(['avatar.glb', 'icon.png']);
    expect(saves).toEqual([
      {
        target: { entity: 'asset' },
        body: {
          name: 'Jacket',
          type: 'top',
          gender: 'unisex',
          textureUrl: null,
          modelUrl: '/files/avatar.glb',
          iconUrl: '/files/icon.png',
        },
      },
    ]);
    expect(saved).toHaveBeenCalledWith({ type: 'SAVED', entity: { id: 'a1' } });
  });

  it('reports the progress of each file', async () => {
    const { actor } = editor();
    const seen: Array<Record<string, number>> = [];
    actor.subscribe((s) => seen.push(selectProgress(s)));
    actor.send({ type: 'SAVE', request: request() });
    await settled(actor);
    expect(seen).toContainEqual({ model: 0.5 });
    expect(seen).toContainEqual({ model: 1, icon: 0.5 });
  });

  it('saves at once when there is no new file', async () => {
    const { actor, uploads, saves } = editor();
    actor.send({ type: 'SAVE', request: request({ files: [] }) });
    await settled(actor);
    expect(uploads).toEqual([]);
    expect(saves[0]?.body).toEqual(request().values);
  });

  it('keeps the request on an upload failure and retries without re-sending stored files', async () => {
    const { actor, uploads, saves } = editor({ failUpload: new Set(['icon.png']) });
    actor.send({ type: 'SAVE', request: request() });
    let snapshot = await settled(actor);
    expect(snapshot.matches('failed')).toBe(true);
    expect(selectFailedStep(snapshot)).toBe('upload');
    expect(selectError(snapshot)).toMatchObject({ status: 413, code: 'FILE_TOO_LARGE' });
    expect(saves).toEqual([]);

    actor.send({ type: 'RETRY' });
    snapshot = await settled(actor);
    expect(selectIsSaved(snapshot)).toBe(true);
    expect(uploads).toEqual(['avatar.glb', 'icon.png', 'icon.png']);
    expect(saves[0]?.body).toMatchObject({
      modelUrl: '/files/avatar.glb',
      iconUrl: '/files/icon.png',
    });
  });

  it('retries a refused save without uploading again', async () => {
    const { actor, uploads, saves } = editor({ failSave: 1 });
    actor.send({ type: 'SAVE', request: request() });
    let snapshot = await settled(actor);
    expect(selectFailedStep(snapshot)).toBe('save');
    expect(selectError(snapshot)).toMatchObject({ status: 409, message: 'Locked' });

    actor.send({ type: 'RETRY' });
    snapshot = await settled(actor);
    expect(selectIsSaved(snapshot)).toBe(true);
    expect(uploads).toEqual(['avatar.glb', 'icon.png']);
    expect(saves).toHaveLength(2);
    expect(saves[1]?.body).toEqual(saves[0]?.body);
  });

  it('takes changed values on a new SAVE after a failure, keeping files already stored', async () => {
    const { actor, uploads, saves } = editor({ failSave: 1 });
    actor.send({ type: 'SAVE', request: request() });
    await settled(actor);
    actor.send({
      type: 'SAVE',
      request: request({ values: { name: 'Coat', type: 'top', gender: 'male' } }),
    });
    const snapshot = await settled(actor);
    expect(selectIsSaved(snapshot)).toBe(true);
    expect(uploads).toEqual(['avatar.glb', 'icon.png']);
    expect(saves[1]?.body).toMatchObject({ name: 'Coat', iconUrl: '/files/icon.png' });
  });

  it('uploads a file again once it was replaced by another one', async () => {
    const { actor, uploads } = editor({ failSave: 1 });
    actor.send({ type: 'SAVE', request: request() });
    await settled(actor);
    const other = new File(['png2'], 'other.png', { type: 'image/png' });
    actor.send({
      type: 'SAVE',
      request: request({
        files: [
          { field: 'model', kind: 'model', file: model },
          { field: 'icon', kind: 'icon', file: other },
        ],
      }),
    });
    await settled(actor);
    expect(uploads).toEqual(['avatar.glb', 'icon.png', 'other.png']);
  });
});

describe('bodyOf', () => {
  it('puts each stored address under the field name plus Url', () => {
    expect(
      bodyOf(request({ values: { name: 'x' } }), [
        { field: 'model', file: model, url: '/m' },
        { field: 'icon', file: icon, url: '/i' },
      ]),
    ).toEqual({ name: 'x', modelUrl: '/m', iconUrl: '/i' });
  });
});
