/**
 * The edges of the upload rules (spec §5, §8, §9) a person meets at the drop area and after it:
 * a file of exactly the minimum size, files without a MIME type or a name, upper-case names,
 * Photoshop and FBX content, profile names written differently, a file that cannot be read.
 */
import { describe, expect, it } from 'vitest';
import type { ByteSource } from './bytes';
import { pngChunk } from './png-writer';
import { MB, UPLOAD_RULES, type UploadRule } from './rules';
import { OVERSIZED_MODELS } from './test-models';
import {
  AVATARS,
  fixtureBlob,
  iccpChunk,
  jpegFile,
  NodeBlob,
  PNG_SUITE,
  withChunksAfterIhdr,
} from './test-fixtures';
import { formatBytes } from './format-bytes';
import { checkDropRules, checkImageRules, validateFileContent } from './validate';

const { icon, texture, model, source } = UPLOAD_RULES;

/** A PSD header (version 1, 3 channels, 512 × 256, 8 bits, RGB) in `size` bytes. */
function psdFile(size = 64) {
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('8BPS'));
  view.setUint16(4, 1);
  view.setUint16(12, 3);
  view.setUint32(14, 512);
  view.setUint32(18, 256);
  view.setUint16(22, 8);
  view.setUint16(24, 3);
  return bytes;
}

const named = (blob: Blob, name: string) => Object.assign(blob, { name });

describe('formatBytes at the unit steps', () => {
  it('names a whole KiB, MiB and GiB by their unit, and stops at GB', () => {
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(MB)).toBe('1 MB');
    expect(formatBytes(1024 * MB)).toBe('1 GB');
    expect(formatBytes(2048 * 1024 * MB)).toBe('2048 GB');
  });
});

describe('checkDropRules at the edges', () => {
  it.each([
    ['an icon', 'icon.png', icon],
    ['a texture', 'texture.jpg', texture],
    ['a model', 'avatar.glb', model],
    ['a PSD source file', 'source.psd', source],
  ] as const)('takes %s of exactly the minimum size, refuses one byte less', (_, name, rule) => {
    expect(checkDropRules({ name, type: '', size: rule.minSize }, rule)).toBeNull();
    expect(checkDropRules({ name, type: '', size: rule.minSize - 1 }, rule)).toMatchObject({
      key: 'fileInput.tooSmall',
    });
  });

  it('takes a texture without a MIME type by its extension, in any case', () => {
    expect(checkDropRules({ name: 'WOOD.JPEG', type: '', size: 1000 }, texture)).toBeNull();
    expect(checkDropRules({ name: 'wood.Png', size: 1000 }, texture)).toBeNull();
  });

  it('takes a texture without a name by its MIME type, and refuses one with neither', () => {
    expect(checkDropRules({ type: 'image/jpeg', size: 1000 }, texture)).toBeNull();
    expect(checkDropRules({ size: 1000 }, texture)).toEqual({
      key: 'fileInput.wrongType',
      values: { accepted: '.png, .jpg, .jpeg' },
      detail: 'The file (no type) is not accepted',
    });
  });

  it('names the file and its type in the refusal, and lists every accepted extension', () => {
    expect(checkDropRules({ name: 'notes.txt', type: 'text/plain', size: 1000 }, texture)).toEqual({
      key: 'fileInput.wrongType',
      values: { accepted: '.png, .jpg, .jpeg' },
      detail: 'notes.txt (text/plain) is not accepted',
    });
    // A MIME type the rule does not know is not taken for one it does.
    expect(checkDropRules({ name: 'avatar', type: 'image/png', size: 1000 }, model)).toMatchObject({
      key: 'fileInput.wrongType',
    });
  });
});

describe('checkImageRules at the edges', () => {
  const header = {
    format: 'png',
    width: 1024,
    height: 1024,
    colorType: 'rgba',
    bitDepth: 8,
    colorSpace: null,
  } as const;

  it('takes an image of exactly the largest size, refuses one pixel taller', () => {
    expect(checkImageRules(header, icon.validation)).toBeNull();
    expect(checkImageRules({ ...header, height: 1025 }, icon.validation)).toEqual({
      key: 'fileInput.imageSizeTooLarge',
      values: { width: 1024, height: 1024, actualWidth: 1024, actualHeight: 1025 },
    });
  });

  it('reads a required colour space ignoring case, spaces and punctuation', () => {
    const required = (colorSpace: string) => ({ colorSpace });
    const named = (colorSpace: string) => ({ ...header, colorSpace });

    expect(checkImageRules(named('sRGB IEC61966-2.1'), required('IEC 61966-2.1'))).toBeNull();
    expect(checkImageRules(named('SRGB built-in'), required('s-rgb'))).toBeNull();
    expect(checkImageRules(named('Display P3'), required('sRGB'))).toEqual({
      key: 'fileInput.wrongColorSpace',
      values: { expected: 'sRGB', actual: 'Display P3' },
    });
  });
});

describe('validateFileContent at the edges', () => {
  it('passes a sound Photoshop document as a source file, and calls a damaged one damaged', async () => {
    expect(await validateFileContent(new NodeBlob([psdFile()]), source)).toBeNull();
    const cut = named(new NodeBlob([psdFile().subarray(0, 20)]), 'source.psd');
    expect(await validateFileContent(cut, source)).toMatchObject({ key: 'fileInput.corrupt' });
  });

  it('says a Photoshop document is one when an image is asked for', async () => {
    expect(await validateFileContent(named(new NodeBlob([psdFile()]), 'icon.png'), icon)).toEqual({
      key: 'fileInput.wrongContent',
      values: { actual: 'a Photoshop document (.psd)', expected: 'a PNG image' },
      detail: 'This file is a Photoshop document (.psd), not a PNG image',
    });
  });

  it('checks nothing inside an FBX model where a rule takes FBX', async () => {
    const fbxRule: UploadRule = { accept: { 'model/fbx': ['.fbx'] }, minSize: 1, maxSize: MB };
    const fbx = new NodeBlob(['Kaydara FBX Binary  \0', new Uint8Array(64)]);
    expect(await validateFileContent(fbx, fbxRule)).toBeNull();
  });

  it('holds content against the type its name stands for, in any case', async () => {
    const text = named(new NodeBlob(['just a note, nothing more']), 'WOOD.JPG');
    expect(await validateFileContent(text, texture)).toMatchObject({
      values: { actual: 'text', expected: 'a JPEG image' },
    });
    const unnamed = new NodeBlob(['just a note, nothing more']);
    expect(await validateFileContent(unnamed, texture)).toMatchObject({
      values: { actual: 'text', expected: 'a PNG image or a JPEG image' },
    });
  });

  it('calls an upper-case .GLB that starts like nothing known damaged', async () => {
    const zeros = named(new NodeBlob([new Uint8Array(64)]), 'AVATAR.GLB');
    expect(await validateFileContent(zeros, model)).toEqual({
      key: 'fileInput.corrupt',
      detail: 'AVATAR.GLB does not start like any accepted type: it is damaged',
    });
  });

  it('calls a texture named .jpg that starts like nothing known damaged', async () => {
    const zeros = named(new NodeBlob([new Uint8Array(64)]), 'wood.jpg');
    expect(await validateFileContent(zeros, texture)).toMatchObject({ key: 'fileInput.corrupt' });
  });

  it('refuses a model over a limit, and calls one that cannot be read past its header damaged', async () => {
    const over = named(new NodeBlob([OVERSIZED_MODELS.manyNodes.glb()]), 'a.glb');
    expect(await validateFileContent(over, model)).toEqual({
      key: 'fileInput.modelOverLimit',
      values: { model: OVERSIZED_MODELS.manyNodes.reason },
    });
    // The header and chunk heads read, the JSON does not: the disk went away meanwhile.
    const real = fixtureBlob(AVATARS, 'male-emissive.glb');
    const failing: ByteSource = {
      size: real.size,
      slice: (start = 0, end = real.size) =>
        end - start > 64
          ? { arrayBuffer: () => Promise.reject(new Error('disk gone')) }
          : real.slice(start, end),
    };
    expect(await validateFileContent(failing, model)).toEqual({
      key: 'fileInput.corrupt',
      detail: 'The file could not be read (disk gone)',
    });
  });

  it('calls a PNG with a damaged signature damaged only where PNG is accepted', async () => {
    const png = new Uint8Array(await fixtureBlob(PNG_SUITE, 'basn6a08.png').arrayBuffer());
    png[1] = 0x51;
    expect(await validateFileContent(named(new NodeBlob([png]), 'a.png'), icon)).toMatchObject({
      key: 'fileInput.corrupt',
      detail: expect.stringMatching(/signature is damaged/) as string,
    });
    expect(await validateFileContent(new NodeBlob([png]), model)).toMatchObject({
      key: 'fileInput.wrongContent',
    });
  });

  it('checks the chunks of a PNG but reads only the header of a JPEG', async () => {
    const badCrc = withChunksAfterIhdr('basn6a08.png', pngChunk('tEXt', Uint8Array.of(65, 0, 66)));
    const bytes = new Uint8Array(await badCrc.arrayBuffer());
    const crcEnd = 33 + 8 + 3 + 3; // the tEXt chunk's last CRC byte
    bytes[crcEnd] = bytes[crcEnd]! ^ 0xff;
    expect(await validateFileContent(new NodeBlob([bytes]), icon)).toMatchObject({
      key: 'fileInput.corrupt',
      detail: expect.stringMatching(/tEXt/) as string,
    });
    expect(await validateFileContent(jpegFile({ width: 64, height: 64 }), texture)).toBeNull();
  });

  it('refuses an image whose header cannot be read', async () => {
    const cut = new Uint8Array(await fixtureBlob(PNG_SUITE, 'basn6a08.png').arrayBuffer());
    expect(await validateFileContent(new NodeBlob([cut.subarray(0, 30)]), icon)).toMatchObject({
      key: 'fileInput.corrupt',
    });
  });

  it('calls a file that cannot be read damaged, saying why', async () => {
    const broken: ByteSource = {
      size: 100,
      slice: () => ({ arrayBuffer: () => Promise.reject(new Error('disk gone')) }),
    };
    expect(await validateFileContent(broken, icon)).toEqual({
      key: 'fileInput.corrupt',
      detail: 'The file could not be read (disk gone)',
    });
  });

  it('applies an icon profile rule to an iCCP chunk', async () => {
    const p3 = withChunksAfterIhdr('basn6a08.png', iccpChunk('Display P3', new Uint8Array(8)));
    expect(await validateFileContent(p3, icon)).toMatchObject({ key: 'fileInput.wrongColorSpace' });
  });
});
