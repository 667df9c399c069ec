/** Generated models for derivation tests and benches. */
import { Document, NodeIO } from '@gltf-transform/core';
import { EXTTextureWebP } from '@gltf-transform/extensions';
import sharp from 'sharp';

/**
 * One triangle textured with a `side` × `side` lossless WebP of one colour (`red` tells models
 * apart): a few KB that decode to `side`² pixels, slow to derive (8192: about 7 s of CPU on a
 * 2-core machine).
 */
export async function webpTexturedModel(side: number, red = 128): Promise<Uint8Array> {
  const webp = await sharp({
    create: { width: side, height: side, channels: 3, background: { r: red, g: 128, b: 128 } },
  })
    .webp({ lossless: true })
    .toBuffer();
  const doc = new Document();
  const buffer = doc.createBuffer();
  doc.createExtension(EXTTextureWebP).setRequired(true);
  const texture = doc.createTexture().setImage(new Uint8Array(webp)).setMimeType('image/webp');
  const accessor = (type: 'VEC2' | 'VEC3', values: number[]) =>
    doc.createAccessor().setType(type).setArray(new Float32Array(values)).setBuffer(buffer);
  const triangle = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', [0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .setAttribute('TEXCOORD_0', accessor('VEC2', [0, 0, 1, 0, 0, 1]))
    .setMaterial(doc.createMaterial().setBaseColorTexture(texture));
  doc.createScene().addChild(doc.createNode().setMesh(doc.createMesh().addPrimitive(triangle)));
  return new NodeIO().registerExtensions([EXTTextureWebP]).writeBinary(doc);
}
