import { describe, expect, it } from 'vitest';
import { AVATARS, fixtureBytes } from '../../../core/files/test-fixtures';
import { DRACO_EXTENSION, glbExtensionsUsed } from './decoders';

const avatar = (name: string) => fixtureBytes(AVATARS, name).buffer;

describe('glbExtensionsUsed (which decoders a model needs)', () => {
  it('finds Draco in the compressed avatar and not in the plain one', () => {
    expect(glbExtensionsUsed(avatar('male-emissive.draco.glb'))).toContain(DRACO_EXTENSION);
    expect(glbExtensionsUsed(avatar('male-emissive.glb'))).not.toContain(DRACO_EXTENSION);
  });

  it('answers none for bytes that are not a readable binary glTF', () => {
    const glb = avatar('male-emissive.draco.glb');
    expect(glbExtensionsUsed(glb.slice(0, 30))).toEqual([]);
    expect(glbExtensionsUsed(new ArrayBuffer(8))).toEqual([]);
    expect(glbExtensionsUsed(new TextEncoder().encode('Kaydara FBX Binary  ').buffer)).toEqual([]);
  });
});
