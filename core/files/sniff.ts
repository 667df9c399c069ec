/**
 * What a file is, told from its first bytes (never from its name or a client's claim). The
 * server stores uploads under the type sniffed here; the upload control uses it to refuse a
 * file whose content does not match its extension.
 */

export type SniffedType =
  | 'image/png'
  | 'image/jpeg'
  | 'model/gltf-binary'
  | 'model/fbx'
  | 'image/vnd.adobe.photoshop'
  | 'application/octet-stream';

/** How many leading bytes sniffContentType needs. */
export const SNIFF_BYTES = 32;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GLB = [0x67, 0x6c, 0x54, 0x46]; // "glTF"
const PSD = [0x38, 0x42, 0x50, 0x53]; // "8BPS"
const FBX = Array.from('Kaydara FBX Binary  \0', (c) => c.charCodeAt(0));

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);

/** The content type of a file from its first SNIFF_BYTES bytes. */
export function sniffContentType(head: Uint8Array): SniffedType {
  if (startsWith(head, PNG)) return 'image/png';
  if (startsWith(head, JPEG)) return 'image/jpeg';
  if (startsWith(head, GLB)) return 'model/gltf-binary';
  if (startsWith(head, PSD)) return 'image/vnd.adobe.photoshop';
  if (startsWith(head, FBX)) return 'model/fbx';
  return 'application/octet-stream';
}

/** What a file holds, for messages: a sniffed type, or text (no known type, but readable). */
export type ContentKind = SniffedType | 'text';

/** Control characters other than tab, line feed, form feed and carriage return. */
const isControl = (byte: number) =>
  (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) ||
  byte === 0x7f;

/**
 * What `head` (a file's first bytes) says the file is: its sniffed type, or 'text' when it has
 * none but reads as UTF-8 without control characters (a .gltf, a note, an HTML page).
 */
export function describeContent(head: Uint8Array): ContentKind {
  const sniffed = sniffContentType(head);
  if (sniffed !== 'application/octet-stream' || head.length === 0) return sniffed;
  if (head.some(isControl)) return sniffed;
  try {
    // `stream` lets the head end inside a character.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'text';
  } catch {
    return sniffed;
  }
}

/** How messages name each kind of content (the client's and the server's alike). */
export const CONTENT_NAMES: Record<ContentKind, string> = {
  'image/png': 'a PNG image',
  'image/jpeg': 'a JPEG image',
  'model/gltf-binary': 'a glTF binary model (.glb)',
  'model/fbx': 'an FBX model (.fbx)',
  'image/vnd.adobe.photoshop': 'a Photoshop document (.psd)',
  text: 'text',
  'application/octet-stream': 'damaged or of a type not known here',
};

/** "a PNG image", "a PNG image or a JPEG image": the types `expected` names, for messages. */
export function nameTypes(expected: readonly SniffedType[]): string {
  const names = expected.map((type) => CONTENT_NAMES[type]);
  return names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
}

/** The message for content that is not what it should be: "This file is text, not …". */
export const contentMismatch = (actual: ContentKind, expected: readonly SniffedType[]) =>
  `This file is ${CONTENT_NAMES[actual]}, not ${nameTypes(expected)}`;
