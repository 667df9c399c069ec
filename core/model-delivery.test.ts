import { describe, expect, it } from 'vitest';
import { deliveryAddress, deliveredModelUrl, deliverySources } from './model-delivery';

const KEY = '0123456789abcdef01234567.glb';
const ORIGIN = 'https://studio.example';

describe('where the studio loads a model', () => {
  it('loads a stored model, by path or by an address on its own origin, as its delivery version', () => {
    expect(deliveryAddress(`/files/${KEY}`)).toBe(`/files/${KEY}?delivery`);
    expect(deliveryAddress(`${ORIGIN}/files/${KEY}`, [ORIGIN])).toBe(
      `${ORIGIN}/files/${KEY}?delivery`,
    );
  });

  it('leaves every other address as it is', () => {
    // Without a studio origin (the viewer as a library) an absolute address is someone else's.
    expect(deliveryAddress(`${ORIGIN}/files/${KEY}`)).toBe(`${ORIGIN}/files/${KEY}`);
    for (const other of [
      `https://elsewhere.example/files/${KEY}`,
      `${ORIGIN}/files/${KEY}?v=2`,
      `${ORIGIN}/files/${KEY}#x`,
      `/files/${KEY}?delivery`,
      '/files/not-a-key.glb',
      'data:model/gltf-binary;base64,AA',
    ]) {
      expect(deliveryAddress(other, [ORIGIN])).toBe(other);
    }
  });

  it('maps each source of a list and keeps what is not an address', () => {
    const blob = new Blob();
    expect(deliverySources([`/files/${KEY}`, blob, '/a.glb'])).toEqual([
      `/files/${KEY}?delivery`,
      blob,
      '/a.glb',
    ]);
  });

  it("shows an asset's delivery version once it is ready, else the model as uploaded", () => {
    const modelUrl = `/files/${KEY}`;
    const ready = { status: 'ready', url: '/files/ffffffffffffffffffffffff.glb' };
    expect(deliveredModelUrl({ modelUrl, modelDelivery: ready })).toBe(ready.url);
    expect(deliveredModelUrl({ modelUrl, modelDelivery: { status: 'pending', url: null } })).toBe(
      modelUrl,
    );
    expect(deliveredModelUrl({ modelUrl, modelDelivery: null })).toBe(modelUrl);
  });
});
