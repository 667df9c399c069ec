import { describe, expect, it } from 'vitest';
import {
  cleanFileName,
  MAX_FILE_NAME_LENGTH,
  nameForType,
  withoutFormatControls,
} from './file-name';

describe('cleanFileName', () => {
  it('drops a right-to-left override, so the name shows its real extension', () => {
    // Shown as "invoiceexe.pdf" with the override; the file is an .exe.
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
  });

  it('drops every bidirectional control and other invisible format character', () => {
    const controls = [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E', // embeddings and overrides
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069', // isolates
      '\u200E',
      '\u200F',
      '\u061C', // marks
      '\u200B',
      '\u2060',
      '\uFEFF',
      '\u00AD', // zero-width and soft hyphen
      '\u2028',
      '\u2029', // line and paragraph separators
    ];
    expect(cleanFileName(`a${controls.join('')}b.glb`)).toBe('ab.glb');
    expect(withoutFormatControls(`x${controls.join('')}y`)).toBe('xy');
  });

  it('keeps letters of every script, spaces and marks that are part of a letter', () => {
    expect(cleanFileName('Zoë avatar (final).glb')).toBe('Zoë avatar (final).glb');
    expect(cleanFileName('صورة.png')).toBe('صورة.png');
    expect(cleanFileName('नमस्ते.png')).toBe('नमस्ते.png');
  });

  it('keeps the last path segment, without control characters, at most 200 characters', () => {
    expect(cleanFileName('C:\\Users\\me\\..\\secret/../a\u0000b.glb')).toBe('ab.glb');
    expect(cleanFileName('../..')).toBeUndefined();
    expect(cleanFileName('\u202E')).toBeUndefined();
    expect(cleanFileName(' \u200F . ')).toBeUndefined();
    expect(cleanFileName('x'.repeat(500))).toHaveLength(200);
  });
});

describe('nameForType', () => {
  it("ends a name with its file's real type, keeping what the uploader called it", () => {
    // An icon PNG uploaded as a page: saved as a page, a browser would open it as one.
    expect(nameForType('quarterly-report.html', 'image/png')).toBe('quarterly-report.html.png');
    expect(nameForType('avatar.png.exe', 'image/png')).toBe('avatar.png.exe.png');
    expect(nameForType('setup.exe', 'application/octet-stream')).toBe('setup.exe.bin');
    expect(nameForType('icon', 'image/png')).toBe('icon.png');
    expect(nameForType('Zoë v1.2', 'model/gltf-binary')).toBe('Zoë v1.2.glb');
  });

  it("keeps a name that already ends with one of its type's extensions, in any case", () => {
    expect(nameForType('avatar.glb', 'model/gltf-binary')).toBe('avatar.glb');
    expect(nameForType('Photo.JPEG', 'image/jpeg')).toBe('Photo.JPEG');
    expect(nameForType('photo.jpg', 'image/jpeg')).toBe('photo.jpg');
    expect(nameForType('layers.psd', 'image/vnd.adobe.photoshop')).toBe('layers.psd');
    expect(nameForType('rig.FBX', 'model/fbx')).toBe('rig.FBX');
    // Not a .png: only the part after the last dot counts.
    expect(nameForType('report-png', 'image/png')).toBe('report-png.png');
    expect(nameForType('png', 'image/png')).toBe('png.png');
  });

  it('stays within the longest kept name, the extension whole', () => {
    const long = nameForType('x'.repeat(MAX_FILE_NAME_LENGTH), 'model/gltf-binary');
    expect(long).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(long.endsWith('x.glb')).toBe(true);
  });
});
