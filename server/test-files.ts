/**
 * Files for upload tests: the shared fixtures (avatars, PngSuite) and generated ones (a glTF
 * binary of any size with a well-formed header, minimal JPEG and PSD files).
 */
import { uploadResultSchema, type UploadKind, type UploadResult } from '../contract/schemas';
import {
  AVATARS,
  PNG_SUITE,
  fixtureBytes,
  fixtureNames,
  jpegFile,
} from '../core/files/test-fixtures';
import { dataOf, type JsonResponse } from './test-app';

/** Every avatar .glb of the fixtures, by file name. */
export const avatarFiles = () => fixtureNames(AVATARS, '.glb');
/** The avatar fixtures that hold only an animation, no mesh: refused as models. */
export const ANIMATION_CLIPS = ['female-idle.glb', 'maleIdle.glb'];

export const readAvatar = (name: string) => fixtureBytes(AVATARS, name);

/** A PngSuite image (basn6a08.png is 32×32 RGBA, 8 bits). */
export const readPng = (name = 'basn6a08.png') => fixtureBytes(PNG_SUITE, name);

/**
 * `size` bytes with a glTF 2.0 binary header that declares exactly that size, and one JSON
 * chunk (of spaces) filling the rest.
 */
export function glbOfSize(size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x20);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0x46546c67, true); // "glTF"
  view.setUint32(4, 2, true);
  view.setUint32(8, size, true);
  view.setUint32(12, size - 20, true);
  view.setUint32(16, 0x4e4f534a, true); // "JSON"
  return bytes;
}

/** A 64×64 baseline JPEG (headers only, which is all the checks read), padded after its end. */
export async function jpegBytes(size = 1000): Promise<Uint8Array> {
  const jpeg = new Uint8Array(await jpegFile({ width: 64, height: 64 }).arrayBuffer());
  const bytes = new Uint8Array(size);
  bytes.set(jpeg);
  return bytes;
}

/** A Photoshop header (version 1, 3 channels, 1×1, 8 bits, RGB) followed by zeros. */
export function psdBytes(size = 1000): Uint8Array {
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('8BPS'));
  view.setUint16(4, 1);
  view.setUint16(12, 3);
  view.setUint32(14, 1);
  view.setUint32(18, 1);
  view.setUint16(22, 8);
  view.setUint16(24, 3);
  return bytes;
}

type Request = (
  method: string,
  path: string,
  options: {
    bytes?: Uint8Array | ReadableStream<Uint8Array>;
    token?: string;
    headers?: Record<string, string>;
  },
) => Promise<JsonResponse>;

/** Uploads `bytes` as `kind` and answers the stored file's address. */
export async function uploadFile(
  request: Request,
  kind: UploadKind,
  bytes: Uint8Array,
  token: string,
): Promise<UploadResult> {
  return uploadResultSchema.parse(
    dataOf(await request('POST', `/v1/uploads/${kind}`, { bytes, token })),
  );
}
