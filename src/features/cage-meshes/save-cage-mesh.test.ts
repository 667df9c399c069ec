/**
 * Which API call saves which cage mesh target: the entity editor with the cage mesh feature's
 * saver (the requests mocked), as the cage mesh form runs it.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { createCageMesh, updateCageMesh } from './api/requests';
import {
  entityEditorMachine,
  selectIsSaved,
  type SavedEntity,
  type SaveInput,
  type SaveTarget,
} from '../../machines/entity-editor.machine';
import { saveCageMeshTarget } from './save-cage-mesh';

vi.mock('./api/requests', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api/requests')>()),
  createCageMesh: vi.fn(),
  updateCageMesh: vi.fn(),
  // The cache follows each answer; here only the calls count.
  cageMeshSaved: vi.fn(),
}));

/** Saves `target` through the editor with the feature's saver; answers the calls made. */
async function save(target: SaveTarget) {
  vi.clearAllMocks();
  for (const call of [createCageMesh, updateCageMesh]) {
    vi.mocked(call).mockResolvedValue({ id: 'e1' } as never);
  }
  const machine = entityEditorMachine.provide({
    actors: {
      save: fromPromise<SavedEntity, SaveInput>(({ input }) => saveCageMeshTarget(input)),
    },
  });
  const actor = createActor(machine).start();
  actor.send({ type: 'SAVE', request: { target, values: { name: 'Jacket' }, files: [] } });
  await vi.waitFor(() => expect(selectIsSaved(actor.getSnapshot())).toBe(true));
  return {
    createCageMesh: vi.mocked(createCageMesh).mock.calls,
    updateCageMesh: vi.mocked(updateCageMesh).mock.calls,
  };
}
const none = { createCageMesh: [], updateCageMesh: [] };

describe('saving a cage mesh target', () => {
  it('creates or patches a cage mesh', async () => {
    expect(await save({ entity: 'cageMesh' })).toEqual({
      ...none,
      createCageMesh: [[{ name: 'Jacket' }, {}]],
    });
    expect(await save({ entity: 'cageMesh', id: 'c1', scope: 'public' })).toEqual({
      ...none,
      updateCageMesh: [['c1', { name: 'Jacket' }, undefined]],
    });
  });

  it('a change sends the version it was based on', async () => {
    expect(await save({ entity: 'cageMesh', id: 'c1', baseVersion: 4 })).toEqual({
      ...none,
      updateCageMesh: [['c1', { name: 'Jacket' }, 4]],
    });
  });
});
