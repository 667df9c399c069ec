import { describe, expect, it } from 'vitest';
import { cleanFileName, withoutFormatControls } from './file-name';

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
