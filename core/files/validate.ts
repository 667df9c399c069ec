/**
 * Upload validation shared by the upload control and the server (spec §5 file rules, §8 file
 * errors). Two stages:
 * - checkDropRules: what the drop area enforces from the file's name, type and size alone.
 * - validateFileContent: what the bytes say: the sniffed type, the structure (GLB, PSD, PNG,
 *   JPEG headers and PNG chunk checksums) and then the image rules in the spec's order.
 * Both return the first failure as a FileError whose key is a translation key and whose
 * values fill the translation's placeholders.
 */
import { readBytes, unreadable, type ByteSource } from './bytes';
import type { FileError } from './file-error';
import { formatBytes } from './format-bytes';
import { checkGlbHeader } from './glb';
import { checkModelLimits, hasNoGeometry, modelOverLimit } from './gltf-limits';
import { checkPsdHeader } from './psd';
import { isDamagedPngSignature, readImageHeader, type ImageHeader } from './image-header';
import { checkPngIntegrity } from './png-integrity';
import type { FileValidationOptions, UploadRule } from './rules';
import { contentMismatch, CONTENT_NAMES, describeContent, nameTypes, SNIFF_BYTES } from './sniff';
import type { SniffedType } from './sniff';

export type { FileError, FileErrorKey } from './file-error';

/** The extensions a rule accepts, for messages: '.png, .jpg, .jpeg'. */
const acceptedExtensions = (rule: UploadRule) => Object.values(rule.accept).flat().join(', ');

/**
 * The accepted types a file should hold: the one its name's extension stands for, else every
 * type the rule accepts.
 */
function expectedTypes(name: string | undefined, rule: UploadRule): SniffedType[] {
  const entries = Object.entries(rule.accept) as [SniffedType, string[]][];
  const lower = name?.toLowerCase();
  const named = entries.filter(([, extensions]) =>
    extensions.some((extension) => lower?.endsWith(extension.toLowerCase())),
  );
  return (named.length > 0 ? named : entries).map(([type]) => type);
}

/** Whether `name` ends with one of the rule's extensions. */
const hasAcceptedExtension = (name: string | undefined, rule: UploadRule) =>
  name !== undefined &&
  Object.values(rule.accept)
    .flat()
    .some((extension) => name.toLowerCase().endsWith(extension.toLowerCase()));

const wrongType = (rule: UploadRule, detail: string): FileError => ({
  key: 'fileInput.wrongType',
  values: { accepted: acceptedExtensions(rule) },
  detail,
});

/**
 * The drop rules: type by extension or MIME type, then minimum and maximum size. The upload
 * field refuses a file by them before reading its bytes.
 */
export function checkDropRules(
  file: { name?: string; type?: string; size: number },
  rule: UploadRule,
): FileError | null {
  const name = file.name?.toLowerCase() ?? '';
  const typeAccepted = Object.entries(rule.accept).some(
    ([mime, extensions]) => file.type === mime || extensions.some((ext) => name.endsWith(ext)),
  );
  if (!typeAccepted) {
    return wrongType(
      rule,
      `${file.name ?? 'The file'} (${file.type || 'no type'}) is not accepted`,
    );
  }
  if (file.size < rule.minSize) {
    return {
      key: 'fileInput.tooSmall',
      values: { min: formatBytes(rule.minSize), size: formatBytes(file.size) },
    };
  }
  if (file.size > rule.maxSize) {
    return {
      key: 'fileInput.tooLarge',
      values: { max: formatBytes(rule.maxSize), size: formatBytes(file.size) },
    };
  }
  return null;
}

/**
 * Whether a profile name satisfies a required colour space: ignoring case, spaces and
 * punctuation, the name contains the required one. So 'sRGB IEC61966-2.1', 'sRGB built-in'
 * and 'sRGB2014' count as sRGB; 'Adobe RGB (1998)' and 'Display P3' do not.
 */
function colorSpaceMatches(actual: string, required: string): boolean {
  const normalize = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return normalize(actual).includes(normalize(required));
}

/**
 * The spec's image rules in order, first failure wins: size (width or height above the
 * maximum), colour type, bit depth, colour space (only when the image names a profile).
 */
export function checkImageRules(
  header: ImageHeader,
  options: FileValidationOptions = {},
): FileError | null {
  const { maxImageDimensions: max, colorType, bitDepth, colorSpace } = options;
  if (max && (header.width > max.width || header.height > max.height)) {
    return {
      key: 'fileInput.imageSizeTooLarge',
      values: {
        width: max.width,
        height: max.height,
        actualWidth: header.width,
        actualHeight: header.height,
      },
    };
  }
  if (colorType !== undefined && header.colorType !== colorType) {
    return {
      key: 'fileInput.wrongColorType',
      values: { expected: colorType, actual: header.colorType },
    };
  }
  if (bitDepth !== undefined && header.bitDepth !== bitDepth) {
    return {
      key: 'fileInput.wrongBitDepth',
      values: { expected: bitDepth, actual: header.bitDepth },
    };
  }
  if (
    colorSpace !== undefined &&
    header.colorSpace !== null &&
    !colorSpaceMatches(header.colorSpace, colorSpace)
  ) {
    return {
      key: 'fileInput.wrongColorSpace',
      values: { expected: colorSpace, actual: header.colorSpace },
    };
  }
  return null;
}

/** Why a model with nothing to see is refused where the rule needs a mesh. */
export const NO_MESH_DETAIL =
  'The model has no mesh to show (an animation clip or a bare skeleton)';

/**
 * A sound GLB's declarations over GLTF_LIMITS (gltf-limits.ts), read before anything loads it;
 * then, where the rule needs a mesh, a model that shows none.
 */
async function modelProblem(file: ByteSource, rule: UploadRule): Promise<FileError | null> {
  try {
    const error = await checkModelLimits(file);
    if (error) return modelOverLimit(error);
    if (rule.needsMesh && (await hasNoGeometry(file))) {
      return {
        key: 'fileInput.noMesh',
        detail: NO_MESH_DETAIL,
      };
    }
    return null;
  } catch (error) {
    return unreadable(error);
  }
}

/**
 * The content checks after the drop area accepted a file: its sniffed type must be one the
 * rule accepts (a .png holding a JPEG is the wrong type), its structure must be sound, then
 * checkImageRules. Images are read by header, plus one checksum pass over a PNG's chunks.
 */
export async function validateFileContent(
  file: ByteSource & { name?: string },
  rule: UploadRule,
): Promise<FileError | null> {
  let head: Uint8Array;
  try {
    head = await readBytes(file, 0, SNIFF_BYTES);
  } catch (error) {
    return unreadable(error);
  }
  const content = describeContent(head);
  // A PNG whose signature was damaged is reported as damaged, not as some other type.
  const damagedPng = rule.accept['image/png'] !== undefined && isDamagedPngSignature(head);
  if (!damagedPng && (content === 'text' || rule.accept[content] === undefined)) {
    // Named as an accepted type but no known content at all: a damaged file of that type
    // (a .glb cut short or overwritten), not a file of some other type.
    if (content === 'application/octet-stream' && hasAcceptedExtension(file.name, rule)) {
      return {
        key: 'fileInput.corrupt',
        detail: `${file.name} does not start like any accepted type: it is damaged`,
      };
    }
    // Otherwise say what it really is: "This file is a PNG image, not a glTF binary model".
    const expected = expectedTypes(file.name, rule);
    return {
      key: 'fileInput.wrongContent',
      values: { actual: CONTENT_NAMES[content], expected: nameTypes(expected) },
      detail: contentMismatch(content, expected),
    };
  }
  switch (content) {
    case 'model/gltf-binary':
      return (await checkGlbHeader(file)) ?? (await modelProblem(file, rule));
    case 'image/vnd.adobe.photoshop':
      return checkPsdHeader(file);
    case 'model/fbx':
      return null;
    default: {
      const result = await readImageHeader(file);
      if (!result.ok) return result.error;
      if (result.header.format === 'png') {
        const damage = await checkPngIntegrity(file);
        if (damage) return damage;
      }
      return checkImageRules(result.header, rule.validation);
    }
  }
}
