import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OVERSIZED_MODELS } from '../../../core/files/test-models';
import {
  acquireModel,
  evictOverLimit,
  preloadModel,
  releaseModel,
  type StoredIndex,
} from './model-cache';

const index = (): StoredIndex => ({
  'https://a.example/old.glb': { size: 40, usedAt: 1 },
  'https://a.example/new.glb': { size: 40, usedAt: 3 },
  'https://a.example/mid.glb': { size: 40, usedAt: 2 },
});

describe('evictOverLimit (the offline model store)', () => {
  it.each([
    { limit: 120, evicted: [] },
    { limit: 100, evicted: ['https://a.example/old.glb'] },
    { limit: 40, evicted: ['https://a.example/old.glb', 'https://a.example/mid.glb'] },
    { limit: 0, evicted: ['old', 'mid', 'new'].map((n) => `https://a.example/${n}.glb`) },
  ])('keeps at most $limit bytes, least recently used out first', ({ limit, evicted }) => {
    const entries = index();
    expect(evictOverLimit(entries, limit)).toEqual(evicted);
    expect(Object.keys(entries).sort()).toEqual(
      Object.keys(index())
        .filter((url) => !evicted.includes(url))
        .sort(),
    );
  });
});

describe('preloadModel', () => {
  const decoders = { dracoDecoderPath: '/decoders/draco/' };
  /** A model file whose bytes never arrive, counting how often they are read. */
  const pendingFile = () => {
    const arrayBuffer = vi.fn(() => new Promise<ArrayBuffer>(() => {}));
    return { file: { arrayBuffer } as unknown as Blob, reads: arrayBuffer };
  };
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts the load that a viewer taking the model then shares', () => {
    const { file, reads } = pendingFile();
    preloadModel(file, decoders);
    expect(reads).toHaveBeenCalledTimes(1);
    const first = acquireModel(file, decoders);
    const second = acquireModel(file, decoders);
    expect(second).toBe(first);
    expect(reads).toHaveBeenCalledTimes(1);
    releaseModel(file);
    releaseModel(file);
  });

  it('lets a preloaded model nobody takes expire after the cache lifespan (100 s)', () => {
    vi.useFakeTimers();
    const { file, reads } = pendingFile();
    preloadModel(file, decoders);
    vi.advanceTimersByTime(99_000);
    void acquireModel(file, decoders);
    expect(reads).toHaveBeenCalledTimes(1);
    releaseModel(file);

    const other = pendingFile();
    preloadModel(other.file, decoders);
    vi.advanceTimersByTime(100_000);
    void acquireModel(other.file, decoders);
    expect(other.reads).toHaveBeenCalledTimes(2);
    releaseModel(other.file);
  });
});

describe('loading a model over the limits', () => {
  const decoders = { dracoDecoderPath: '/decoders/draco/' };

  it.each(Object.entries(OVERSIZED_MODELS))(
    'refuses %s with the reason before the glTF loader sees it',
    async (_, { glb, reason }) => {
      const parse = vi.spyOn(GLTFLoader.prototype, 'parse');
      const bytes = glb();
      const file = { arrayBuffer: () => Promise.resolve(bytes.buffer) } as unknown as Blob;
      const error = await acquireModel(file, decoders).catch((e: unknown) => e);
      releaseModel(file);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(
        typeof reason === 'string' ? `The model ${reason}` : /^The model declares 43,200,000/,
      );
      expect(parse).not.toHaveBeenCalled();
      parse.mockRestore();
    },
  );
});
