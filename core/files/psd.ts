/**
 * Header check of Photoshop source files (.psd, and large-document .psb): reads the 26-byte
 * header, never the layers.
 */
import { corrupt, fourCC, readBytes, unreadable, view, type ByteSource } from './bytes';
import type { FileError } from './file-error';

/** PSD header: signature, version, 6 reserved bytes, channels, height, width, depth, mode. */
const PSD_HEADER_BYTES = 26;
const PSD_DEPTHS = [1, 8, 16, 32];
/** Bitmap, greyscale, indexed, RGB, CMYK, multichannel, duotone, Lab. */
const PSD_COLOR_MODES = [0, 1, 2, 3, 4, 7, 8, 9];
const PSD_MAX_CHANNELS = 56;
/** Largest side of a PSD (version 1) and of a large-document PSB (version 2). */
const PSD_MAX_SIDE: Record<number, number> = { 1: 30_000, 2: 300_000 };

/** Null when `file` starts with a valid Photoshop header (`8BPS`, version 1 or 2). */
export async function checkPsdHeader(file: ByteSource): Promise<FileError | null> {
  try {
    const header = await readBytes(file, 0, PSD_HEADER_BYTES);
    if (fourCC(header, 0) !== '8BPS') {
      return { key: 'fileInput.wrongType', detail: 'The file is not a Photoshop document' };
    }
    if (header.length < PSD_HEADER_BYTES) return corrupt('The file ends inside the PSD header');
    const data = view(header);
    const version = data.getUint16(4);
    const maxSide = PSD_MAX_SIDE[version];
    if (!maxSide) return corrupt(`Unknown PSD version ${version} (1 is PSD, 2 is PSB)`);
    if (header.subarray(6, 12).some((byte) => byte !== 0)) {
      return corrupt('The reserved bytes of the PSD header are not zero');
    }
    const channels = data.getUint16(12);
    const height = data.getUint32(14);
    const width = data.getUint32(18);
    if (channels < 1 || channels > PSD_MAX_CHANNELS) {
      return corrupt(`Invalid channel count ${channels}`);
    }
    if (width < 1 || height < 1 || width > maxSide || height > maxSide) {
      return corrupt(`Invalid image size ${width} × ${height}`);
    }
    if (!PSD_DEPTHS.includes(data.getUint16(22))) {
      return corrupt(`Invalid bit depth ${data.getUint16(22)}`);
    }
    if (!PSD_COLOR_MODES.includes(data.getUint16(24))) {
      return corrupt(`Invalid colour mode ${data.getUint16(24)}`);
    }
    return null;
  } catch (error) {
    return unreadable(error);
  }
}
