import { describe, expect, it } from 'vitest';
import { checkPsdHeader } from './psd';
import { fixtureBlob, NodeBlob, PNG_SUITE } from './test-fixtures';

describe('checkPsdHeader', () => {
  /** A PSD header: version, channels, height, width, depth, colour mode. */
  const psd = (version = 1, channels = 3, height = 512, width = 256, depth = 8, mode = 3) => {
    const bytes = new Uint8Array(64);
    const view = new DataView(bytes.buffer);
    bytes.set(new TextEncoder().encode('8BPS'));
    view.setUint16(4, version);
    view.setUint16(12, channels);
    view.setUint32(14, height);
    view.setUint32(18, width);
    view.setUint16(22, depth);
    view.setUint16(24, mode);
    return new NodeBlob([bytes]);
  };

  it('accepts PSD and PSB headers', async () => {
    expect(await checkPsdHeader(psd(1))).toBeNull();
    expect(await checkPsdHeader(psd(2, 4, 100_000, 100_000, 16, 4))).toBeNull();
  });

  it('rejects other files, unknown versions and impossible fields', async () => {
    expect(await checkPsdHeader(fixtureBlob(PNG_SUITE, 'basn6a08.png'))).toMatchObject({
      key: 'fileInput.wrongType',
    });
    expect(await checkPsdHeader(psd(3))).toEqual({
      key: 'fileInput.corrupt',
      detail: 'Unknown PSD version 3 (1 is PSD, 2 is PSB)',
    });
    expect(await checkPsdHeader(psd(1, 0))).toMatchObject({ detail: 'Invalid channel count 0' });
    expect(await checkPsdHeader(psd(1, 3, 40_000))).toMatchObject({ key: 'fileInput.corrupt' });
    expect(await checkPsdHeader(psd(1, 3, 512, 256, 7))).toMatchObject({
      detail: 'Invalid bit depth 7',
    });
    expect(await checkPsdHeader(new NodeBlob(['8BPS']))).toMatchObject({
      detail: 'The file ends inside the PSD header',
    });
  });
});
