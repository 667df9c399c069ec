/**
 * The delivery version of a model as derived (server/delivery-derive.ts, in its thread:
 * server/delivery.ts), with no database: the server suite runs this file once (scripts/test.sh).
 * Uploads, the backfill and the sweep: deliveries.test.ts.
 */
import type { Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import {
  DELIVERY_TEXTURE_SIZE,
  deriveDelivery,
  notWorthwhile,
  readDeliverable,
} from './delivery-derive';
import { deriveInThread } from './delivery';
import { glbOfSize, readAvatar } from './test-files';

/** What must survive a derivation: skins, morph targets (with their names), animations. */
function features(doc: Document) {
  const root = doc.getRoot();
  return {
    // Quantizing gives each skinned mesh a skin of its own (its inverse bind matrices change
    // with the mesh's scale): the same joints drive the same meshes.
    skinnedMeshes: root
      .listNodes()
      .filter((node) => node.getSkin())
      .map(
        (node) =>
          `${node.getName()}: ${node
            .getSkin()!
            .listJoints()
            .map((j) => j.getName())
            .join(',')}`,
      ),
    morphTargets: root.listMeshes().map((mesh) => ({
      name: mesh.getName(),
      targets: mesh.listPrimitives().map((p) => p.listTargets().length),
      targetNames: mesh.getExtras().targetNames,
    })),
    animations: root.listAnimations().map((animation) => ({
      name: animation.getName(),
      channels: animation
        .listChannels()
        .map((c) => `${c.getTargetNode()?.getName()}.${c.getTargetPath()}`),
    })),
  };
}

async function derived(name: string) {
  const original = readAvatar(name);
  const result = await deriveDelivery(original);
  if (result.kind !== 'derived') throw new Error(`${name}: ${result.reason}`);
  return { original, bytes: result.bytes };
}

describe('the delivery version of a fixture avatar', () => {
  it('keeps its skin, morph targets and animations in at most 40% of the bytes', async () => {
    // Every fixture the server can read (male-emissive.draco.glb is Draco: refused on reading).
    for (const name of [
      'female-animation-catwalk.glb',
      'female-idle.glb',
      'halfBodyAPIv2.glb',
      'male-emissive.glb',
      'maleIdle.glb',
      'neutral-animated-mask.glb',
      'spawn-effect.glb',
    ]) {
      const { original, bytes } = await derived(name);
      expect(bytes.byteLength, name).toBeLessThanOrEqual(original.byteLength * 0.4);
      const before = features(await readDeliverable(original));
      const after = await readDeliverable(bytes);
      expect(features(after), name).toEqual(before);
      expect(
        after
          .getRoot()
          .listExtensionsUsed()
          .map((e) => e.extensionName),
      ).toContain('EXT_meshopt_compression');
    }
  });

  it('has the half-body avatar’s morph targets and animations, its textures WebP within 1024 px', async () => {
    const { bytes } = await derived('halfBodyAPIv2.glb');
    const doc = await readDeliverable(bytes);
    const root = doc.getRoot();
    expect(root.listAnimations()).toHaveLength(18);
    const targets = root
      .listMeshes()
      .flatMap((mesh) => mesh.listPrimitives().flatMap((p) => p.listTargets()));
    expect(targets.length).toBeGreaterThan(0);
    for (const texture of root.listTextures()) {
      expect(Math.max(...texture.getSize()!)).toBeLessThanOrEqual(DELIVERY_TEXTURE_SIZE);
    }
    expect(root.listTextures().some((texture) => texture.getMimeType() === 'image/webp')).toBe(
      true,
    );
  });

  it('refuses in its thread what it cannot read, and stops at its time limit', async () => {
    await expect(deriveInThread(glbOfSize(4096))).rejects.toThrow(
      /could not be read|not a readable/,
    );
    // Draco, named in words an uploader knows (the asset page shows the reason).
    await expect(deriveInThread(readAvatar('male-emissive.draco.glb'))).rejects.toThrow(
      'The model is compressed with Draco, which this server cannot decompress to re-encode it',
    );
    await expect(
      deriveInThread(readAvatar('halfBodyAPIv2.glb'), { timeoutMs: 50, heapMb: 512 }),
    ).rejects.toThrow(/took too long/);
  });
});

describe('why a model is delivered as uploaded', () => {
  it('says so in words an admin uses, not byte counts', () => {
    // The asset page shows it after "delivered as uploaded:".
    expect(notWorthwhile(2052, 1720)).toBe('it is already as small as it gets');
    expect(notWorthwhile(950, 1000)).toBe(
      'it is already as small as it gets (a smaller copy would save only 5 %)',
    );
  });
});
