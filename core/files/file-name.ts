/**
 * File names as people see them, one rule for the browser and the server: a name an upload
 * gives (or one built from a record's name) may carry control characters and invisible format
 * characters. The bidirectional ones make a name lie about its extension: with U+202E
 * RIGHT-TO-LEFT OVERRIDE, "invoice\u202Efdp.exe" shows as "invoiceexe.pdf". They are dropped
 * (not replaced), so what is shown is the name's real order of characters. And a stored file's
 * name ends with its real type (nameForType), whatever the upload called it.
 */
import type { SniffedType } from './sniff';

/** Longest kept name, in characters (most file systems allow 255 bytes). */
export const MAX_FILE_NAME_LENGTH = 200;

// Cc: C0 and C1 controls. Cf: format characters (embeddings, overrides and isolates U+202A-202E
// and U+2066-2069, marks U+200E, U+200F and U+061C, zero-width characters, soft hyphen, byte
// order mark, tag characters). Zl and Zp: line and paragraph separators.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` without control, format (bidirectional, zero-width) and line separator characters. */
export function withoutFormatControls(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * A file name as kept and shown: its last path segment, without invisible characters, trimmed,
 * at most MAX_FILE_NAME_LENGTH characters; undefined when nothing usable is left.
 */
export function cleanFileName(name: string): string | undefined {
  const cleaned = withoutFormatControls(name.split(/[/\\]/).pop() ?? '').trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return undefined;
  return [...cleaned].slice(0, MAX_FILE_NAME_LENGTH).join('');
}

/** The extensions a file of each type may be named with; the first is the one added. */
const TYPE_EXTENSIONS: Record<SniffedType, readonly [string, ...string[]]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'model/gltf-binary': ['glb'],
  'model/fbx': ['fbx'],
  'image/vnd.adobe.photoshop': ['psd'],
  'application/octet-stream': ['bin'],
};

/**
 * `name` for a file of `contentType` (the type the server read from its bytes): kept when it
 * ends with one of the type's extensions, else with the type's extension added (the name cut
 * to stay within MAX_FILE_NAME_LENGTH). A browser and a desktop open a saved file by its
 * extension, so an icon PNG uploaded as "quarterly-report.html" is saved as
 * "quarterly-report.html.png", never as a page, and the name the uploader chose is still there.
 */
export function nameForType(name: string, contentType: SniffedType): string {
  const [own, ...others] = TYPE_EXTENSIONS[contentType];
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  if (name.includes('.') && (extension === own || others.includes(extension))) return name;
  const kept = [...name].slice(0, MAX_FILE_NAME_LENGTH - own.length - 1).join('');
  return `${kept}.${own}`;
}
