/**
 * The upload rules of every file field (spec §5 and §9; docs/using.md "Upload field rules"): what an
 * upload of each kind may be. The upload control, the asset form and the server's upload
 * route all read this one table.
 */
import type { UploadKind } from '../../contract/schemas';
import type { ColorTypeName } from './image-header';
import type { SniffedType } from './sniff';

/** Spec §9: MB means 1024 × 1024 bytes. */
export const MB = 1024 * 1024;

/** Spec §9 file limits: glb 50 MB, texture 5 MB, icon 5 MB, psd 20 MB. */
export const FILE_LIMITS = {
  glb: 50 * MB,
  texture: 5 * MB,
  icon: 5 * MB,
  psd: 20 * MB,
} as const;

/** Spec §3 "File validation options". Absent options are not checked. */
export interface FileValidationOptions {
  maxImageDimensions?: { width: number; height: number };
  /** Colour type name, see image-header.ts (e.g. 'rgba'). */
  colorType?: ColorTypeName;
  bitDepth?: number;
  /** Colour profile name (see colorSpaceMatches in validate.ts); a file without one passes. */
  colorSpace?: string;
}

export interface UploadRule {
  /** The accepted content types with their extensions (the file dialog's `accept`). */
  accept: Partial<Record<SniffedType, string[]>>;
  minSize: number;
  maxSize: number;
  /** Header rules for images (checked without decoding pixels). */
  validation?: FileValidationOptions;
  /** A model must show a mesh (an animation clip alone has nothing to show). */
  needsMesh?: boolean;
}

/** The smallest well-formed files: a 1×1 PNG is 67 bytes, a GLB header plus one chunk 20. */
const MIN_IMAGE_BYTES = 67;
const MIN_GLB_BYTES = 20;
const MIN_PSD_BYTES = 26;

export const UPLOAD_RULES: Record<UploadKind, UploadRule> = {
  /** The icon: PNG, RGBA, 8 bits per channel, at most 1024 × 1024, sRGB when profiled. */
  icon: {
    accept: { 'image/png': ['.png'] },
    minSize: MIN_IMAGE_BYTES,
    maxSize: FILE_LIMITS.icon,
    validation: {
      maxImageDimensions: { width: 1024, height: 1024 },
      colorType: 'rgba',
      bitDepth: 8,
      colorSpace: 'sRGB',
    },
  },
  /** Textures: PNG or JPEG up to 2048 × 2048. */
  texture: {
    accept: { 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'] },
    minSize: MIN_IMAGE_BYTES,
    maxSize: FILE_LIMITS.texture,
    validation: { maxImageDimensions: { width: 2048, height: 2048 } },
  },
  /**
   * The model: a binary glTF (.glb) that shows a mesh. Every asset type and every cage mesh is
   * something to see, so a model holding only an animation is refused.
   */
  model: {
    accept: { 'model/gltf-binary': ['.glb'] },
    minSize: MIN_GLB_BYTES,
    maxSize: FILE_LIMITS.glb,
    needsMesh: true,
  },
  /** The layered source file: Photoshop (.psd). */
  source: {
    accept: { 'image/vnd.adobe.photoshop': ['.psd'] },
    minSize: MIN_PSD_BYTES,
    maxSize: FILE_LIMITS.psd,
  },
};
