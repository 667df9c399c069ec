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
