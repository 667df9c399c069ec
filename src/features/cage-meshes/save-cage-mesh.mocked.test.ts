/**
 * Which API call saves which cage mesh target: the entity editor with the cage mesh feature's
 * saver (the requests mocked), as the cage mesh form runs it.
 */
import { describe, expect, it, vi } from 'vitest';
import { createCageMesh, updateCageMesh } from './api/requests';
import type { CageMesh } from '../../../contract/catalogue-schemas';
import type { SaveTarget } from '../../machines/entity-editor.machine';
import { saveWith } from '../../machines/testing/save-with';
import { saveCageMeshTarget } from './save-cage-mesh';

vi.mock('./api/requests', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api/requests')>()),
  createCageMesh: vi.fn(),
  updateCageMesh: vi.fn(),
  // The cache follows each answer; here only the calls count.
  cageMeshSaved: vi.fn(),
}));

const saved: CageMesh = {
  id: 'e1',
  name: 'Cage',
  gender: 'male',
  bodyType: null,
  modelUrl: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
};

/** Saves `target` through the editor with the feature's saver; answers the calls made. */
async function save(target: SaveTarget) {
  vi.clearAllMocks();
  for (const call of [createCageMesh, updateCageMesh]) vi.mocked(call).mockResolvedValue(saved);
  await saveWith(saveCageMeshTarget, target);
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
