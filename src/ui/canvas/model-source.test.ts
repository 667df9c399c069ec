import { describe, expect, it } from 'vitest';
import { isValidModelSource } from './model-source';

const glbBlob = new Blob([new Uint8Array([0x67, 0x6c, 0x54, 0x46])], { type: 'model/gltf-binary' });

describe('isValidModelSource (spec §5)', () => {
  it.each([
    { name: 'a .glb address', source: 'https://models.example/avatar.glb', valid: true },
    { name: 'a relative .fbx address', source: '/anims/idle.fbx', valid: true },
    {
      name: 'a .glb address with a query string',
      source: '/avatar.glb?quality=low&lod=1',
      valid: true,
    },
    { name: 'an upper-case extension', source: '/AVATAR.GLB', valid: true },
    {
      name: 'an octet-stream base64 data URL',
      source: 'data:application/octet-stream;base64,Z2xURg==',
      valid: true,
    },
    {
      name: 'a gltf-binary base64 data URL',
      source: 'data:model/gltf-binary;base64,Z2xURg==',
      valid: true,
    },
    { name: 'a model/gltf-binary Blob', source: glbBlob, valid: true },
    { name: 'a list of valid sources', source: ['/a.glb', glbBlob, '/b.fbx?x=1'], valid: true },
    { name: 'a .gltf address', source: '/avatar.gltf', valid: false },
    { name: 'an address with .glb in the middle', source: '/avatar.glb.png', valid: false },
    {
      name: 'a string whose query ends in .glb (it ends in .glb)',
      source: '/avatar?file=a.glb',
      valid: true,
    },
    { name: 'a text data URL', source: 'data:text/plain;base64,aGk=', valid: false },
    {
      name: 'a gltf-binary data URL that is not base64',
      source: 'data:model/gltf-binary,abc',
      valid: false,
    },
    {
      name: 'a Blob of another type',
      source: new Blob(['x'], { type: 'application/json' }),
      valid: false,
    },
    { name: 'an untyped Blob', source: new Blob(['x']), valid: false },
    { name: 'an empty string', source: '', valid: false },
    { name: 'an empty list', source: [], valid: false },
    { name: 'a list with one invalid item', source: ['/a.glb', '/b.obj'], valid: false },
    { name: 'a nested list', source: [['/a.glb']], valid: false },
    { name: 'undefined', source: undefined, valid: false },
    { name: 'null', source: null, valid: false },
    { name: 'a number', source: 42, valid: false },
    { name: 'an object', source: { src: '/a.glb' }, valid: false },
  ])('$name → $valid', ({ source, valid }) => {
    expect(isValidModelSource(source)).toBe(valid);
  });
});
