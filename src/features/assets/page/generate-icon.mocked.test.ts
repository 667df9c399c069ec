import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Asset } from '../../../../contract/schemas';
import { ihdrChunk, pngChunk, pngFile } from '../../../../core/files/png-writer';
import { fixtureBlob, NodeBlob, PNG_SUITE } from '../../../../core/files/test-fixtures';
import { generateIcon, IconError, type IconProgress } from './generate-icon';

const api = vi.hoisted(() => ({
  services: { iconRenderer: false, texturePredictor: false, trashRetentionDays: 30 },
  calls: [] as string[],
}));

vi.mock('../../../api/query', () => ({
  queryClient: { fetchQuery: () => Promise.resolve(api.services) },
}));
vi.mock('../api/mutations', () => ({
  renderIconOnServer: (id: string) => {
    api.calls.push(`POST generate-icon-from-model ${id}`);
    return Promise.resolve({ ...asset, iconUrl: '/files/from-renderer' });
  },
  saveAsset: (id: string, body: { iconUrl: string }) => {
    api.calls.push(`PATCH ${id} ${JSON.stringify(body)}`);
    return Promise.resolve({ ...asset, ...body });
  },
}));
vi.mock('../../../api/uploads', () => ({
  uploadFile: (
    kind: string,
    file: File,
    { onProgress }: { onProgress: (p: { fraction: number }) => void },
  ) => {
    api.calls.push(`upload ${kind} ${file.name}`);
    onProgress({ fraction: 0.5 });
    onProgress({ fraction: 1 });
    return Promise.resolve({ url: '/files/uploaded', size: file.size, contentType: file.type });
  },
}));

const asset = {
  id: 'a1',
  name: 'Jacket',
  modelUrl: '/files/jacket',
  iconUrl: null,
} as unknown as Asset;

/** A PNG as the renderer would answer it: a PngSuite file, or a header-only one of `size`. */
function png(name: string): File {
  return Object.assign(fixtureBlob(PNG_SUITE, name), { name: 'icon.png' }) as unknown as File;
}
function pngOfSize(size: number): File {
  const bytes = pngFile([
    ihdrChunk({ width: size, height: size, bitDepth: 8, colorType: 6 }),
    pngChunk('IDAT', new Uint8Array(16)),
    pngChunk('IEND'),
  ]);
  // Node's Blob: jsdom's cannot be read back (no arrayBuffer on a slice).
  return Object.assign(new NodeBlob([bytes], { type: 'image/png' }), {
    name: 'icon.png',
  }) as unknown as File;
}

beforeEach(() => {
  api.calls = [];
  api.services = { iconRenderer: false, texturePredictor: false, trashRetentionDays: 30 };
});

describe('generate icon from model', () => {
  it('uses the server when it has an icon renderer, and renders nothing here', async () => {
    api.services.iconRenderer = true;
    const render = vi.fn();
    const progress: IconProgress[] = [];
    const updated = await generateIcon(asset, (p) => progress.push(p), { render });
    expect(render).not.toHaveBeenCalled();
    expect(api.calls).toEqual(['POST generate-icon-from-model a1']);
    expect(progress).toEqual([{ stage: 'server' }]);
    expect(updated.iconUrl).toBe('/files/from-renderer');
  });

  it('without one, renders the model here, uploads the PNG as an icon and sets it on the asset', async () => {
    const render = vi.fn(() => Promise.resolve(png('basn6a08.png')));
    const progress: IconProgress[] = [];
    const updated = await generateIcon(asset, (p) => progress.push(p), { render });
    expect(render).toHaveBeenCalledWith('/files/jacket', 'Jacket icon');
    expect(api.calls).toEqual(['upload icon icon.png', 'PATCH a1 {"iconUrl":"/files/uploaded"}']);
    expect(progress).toEqual([
      { stage: 'rendering' },
      { stage: 'uploading', fraction: 0 },
      { stage: 'uploading', fraction: 0.5 },
      { stage: 'uploading', fraction: 1 },
      { stage: 'saving' },
    ]);
    expect(updated.iconUrl).toBe('/files/uploaded');
  });

  it('says why when the model cannot be rendered, and uploads nothing', async () => {
    const render = () => Promise.reject(new Error('The model drew nothing visible'));
    const failure = generateIcon(asset, () => {}, { render });
    await expect(failure).rejects.toBeInstanceOf(IconError);
    await expect(failure).rejects.toMatchObject({
      step: 'render',
      reason: 'The model drew nothing visible',
    });
    expect(api.calls).toEqual([]);
  });

  it('never sends a picture the icon rules refuse', async () => {
    // Without an alpha channel the icon field would refuse it: so does the pipeline.
    const render = () => Promise.resolve(png('basn2c08.png'));
    await expect(generateIcon(asset, () => {}, { render })).rejects.toMatchObject({
      step: 'check',
      fileError: { key: 'fileInput.wrongColorType' },
    });
    const huge = () => Promise.resolve(pngOfSize(2048));
    await expect(generateIcon(asset, () => {}, { render: huge })).rejects.toMatchObject({
      step: 'check',
      fileError: { key: 'fileInput.imageSizeTooLarge' },
    });
    expect(api.calls).toEqual([]);
  });
});
