import { describe, expect, it } from 'vitest';
import { checkGlbHeader } from './glb';
import {
  AVATARS,
  fixtureBlob,
  fixtureBytes,
  fixtureNames,
  NodeBlob,
  PNG_SUITE,
} from './test-fixtures';

const avatars = fixtureNames(AVATARS, '.glb');

describe('checkGlbHeader', () => {
  it('has avatars to check', () => {
    expect(avatars.length).toBeGreaterThanOrEqual(8);
  });

  it.each(avatars)('%s passes', async (name) => {
    expect(await checkGlbHeader(fixtureBlob(AVATARS, name))).toBeNull();
  });

  it('rejects a truncated model', async () => {
    const model = fixtureBytes(AVATARS, 'maleIdle.glb');

    expect(await checkGlbHeader(new NodeBlob([model.subarray(0, model.length - 1000)]))).toEqual({
      key: 'fileInput.corrupt',
      detail: `The header gives a length of ${model.length} bytes but the file has ${model.length - 1000}`,
    });
  });

  it('rejects a PNG renamed to .glb', async () => {
    expect(await checkGlbHeader(fixtureBlob(PNG_SUITE, 'basn6a08.png'))).toEqual({
      key: 'fileInput.notGlb',
      detail: 'The file does not start with the binary glTF magic "glTF"',
    });
  });

  it('rejects glTF 1, a first chunk that is not JSON and chunks that overrun the file', async () => {
    const model = fixtureBytes(AVATARS, 'spawn-effect.glb');
    const patched = (at: number, value: number) => {
      const copy = model.slice();
      new DataView(copy.buffer).setUint32(at, value, true);
      return new NodeBlob([copy]);
    };

    expect(await checkGlbHeader(patched(4, 1))).toMatchObject({ key: 'fileInput.notGlb' });
    expect(await checkGlbHeader(patched(16, 0x004e4942))).toMatchObject({
      detail: 'The first chunk is not the JSON chunk',
    });
    expect(await checkGlbHeader(patched(12, model.length))).toMatchObject({
      detail: 'The JSON chunk runs past the end of the file',
    });
    const binLengthAt = 20 + new DataView(model.buffer).getUint32(12, true);
    expect(await checkGlbHeader(patched(binLengthAt, model.length))).toMatchObject({
      detail: 'The BIN chunk runs past the end of the file',
    });
  });
});
