/**
 * What a failed file check answers: a translation key and the values that fill its
 * placeholders. Every reader (bytes, glb, psd, image-header, ...) and validate.ts answer it, so
 * it sits below them all.
 */
export type FileErrorKey =
  /** values: width, height (the maximum), actualWidth, actualHeight. */
  | 'fileInput.imageSizeTooLarge'
  /** values: expected, actual (colour type names, e.g. 'rgba', 'rgb'). */
  | 'fileInput.wrongColorType'
  /** values: expected, actual (bits per channel). */
  | 'fileInput.wrongBitDepth'
  /** values: expected, actual (colour profile names). */
  | 'fileInput.wrongColorSpace'
  /** No values; `detail` says what is damaged. */
  | 'fileInput.corrupt'
  /** values: accepted (extensions, e.g. '.png, .jpg'). */
  | 'fileInput.wrongType'
  /** values: actual, expected (what the file is and should be, from core/files/sniff.ts). */
  | 'fileInput.wrongContent'
  /** values: max, size (formatted, e.g. '5 MB'). */
  | 'fileInput.tooLarge'
  /** values: min, size (formatted, e.g. '67 B'). */
  | 'fileInput.tooSmall'
  /** No values; `detail` says why. */
  | 'fileInput.notGlb'
  /** values: model (what it declares over which limit, see gltf-limits.ts). */
  | 'fileInput.modelOverLimit'
  /** No values: the model shows no mesh (an animation clip) where a mesh is needed. */
  | 'fileInput.noMesh';

export interface FileError {
  key: FileErrorKey;
  /** Interpolation values of the translation, e.g. `{ max: '5 MB', size: '7.2 MB' }`. */
  values?: Record<string, string | number>;
  /** A plain-English explanation for logs, server responses and tooltips. */
  detail?: string;
}
