/**
 * Which API call saves which asset target: the entity editor with the asset feature's saver
 * (the requests mocked), as the asset form and the applications panel run it.
 */
import { describe, expect, it, vi } from 'vitest';
import { createAsset, createAssetFromTemplate, updateAsset } from './api/requests';
import { updateAssetApplication } from './api/placements';
import type { AssetApplication } from '../../../contract/catalogue-schemas';
import { testAsset } from '../../api/testing';
import type { SaveTarget } from '../../machines/entity-editor.machine';
import { saveWith } from '../../machines/testing/save-with';
import { saveAssetTarget } from './save-asset';

vi.mock('./api/requests', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api/requests')>()),
  createAsset: vi.fn(),
  createAssetFromTemplate: vi.fn(),
  updateAsset: vi.fn(),
}));
vi.mock('./api/placements', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api/placements')>()),
  updateAssetApplication: vi.fn(),
}));
// The cache follows each answer (api/mutations.test.ts); here only the calls count.
vi.mock('./api/cache', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api/cache')>()),
  assetCreated: vi.fn(),
  assetUpdated: vi.fn(),
  placementsChanged: vi.fn(),
}));

const asset = testAsset({ id: 'e1' });
const placement: AssetApplication = {
  id: 'e1',
  applicationId: 'app1',
  assetId: 'a1',
  position: 1,
  syncedAt: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  asset,
  applicationName: 'Mirror',
};

/** Saves `values` to `target` through the editor with the feature's saver; answers the calls. */
async function save(target: SaveTarget, values: Record<string, unknown> = { name: 'Jacket' }) {
  vi.clearAllMocks();
  for (const call of [createAsset, createAssetFromTemplate, updateAsset]) {
    vi.mocked(call).mockResolvedValue(asset);
  }
  vi.mocked(updateAssetApplication).mockResolvedValue(placement);
  await saveWith(saveAssetTarget, target, values);
  return {
    createAsset: vi.mocked(createAsset).mock.calls,
    createAssetFromTemplate: vi.mocked(createAssetFromTemplate).mock.calls,
    updateAsset: vi.mocked(updateAsset).mock.calls,
    updateAssetApplication: vi.mocked(updateAssetApplication).mock.calls,
  };
}
const none = {
  createAsset: [],
  createAssetFromTemplate: [],
  updateAsset: [],
  updateAssetApplication: [],
};

describe('saving an asset target', () => {
  it('creates or patches an asset in its scope', async () => {
    expect(await save({ entity: 'asset', scope: 'private' })).toEqual({
      ...none,
      createAsset: [[{ name: 'Jacket' }, { scope: 'private' }]],
    });
    expect(await save({ entity: 'asset', id: 'a1' })).toEqual({
      ...none,
      updateAsset: [['a1', { name: 'Jacket' }, {}]],
    });
  });

  it('copies a template, then applies the form to the private copy', async () => {
    expect(await save({ entity: 'asset', templateId: 't1' })).toEqual({
      ...none,
      createAssetFromTemplate: [[{ templateId: 't1', name: 'Jacket' }]],
      updateAsset: [['e1', { name: 'Jacket' }, { scope: 'private' }]],
    });
  });

  it('a change sends the version it was based on', async () => {
    expect(await save({ entity: 'asset', id: 'a1', baseVersion: 3 })).toEqual({
      ...none,
      updateAsset: [['a1', { name: 'Jacket' }, { baseVersion: 3 }]],
    });
  });

  it('moves the asset within an application on the version of its entry', async () => {
    const target: SaveTarget = {
      entity: 'applicationAsset',
      id: 'a1',
      applicationId: 'app1',
      baseVersion: 2,
    };
    expect(await save(target, { position: 3 })).toEqual({
      ...none,
      updateAssetApplication: [['a1', { applicationId: 'app1', position: 3 }, { baseVersion: 2 }]],
    });
  });
});
