// Where a viewer's options say its model and environment come from, and loading them early.
import { DEFAULT_DRACO_DECODER_PATH } from './decoders';
import { environmentTexture } from './environment-lighting';
import { DEFAULT_ENVIRONMENT, environmentFile } from './environments';
import { preloadModel, type DecoderOptions } from './model-cache';
import { isValidModelSource } from './model-source';
import type { PreloadOptions } from './viewer-options';

/** The decoders a viewer with these options loads its models with. */
export const decoderOptions = (options: PreloadOptions): DecoderOptions => ({
  dracoDecoderPath: options.dracoDecoderPath ?? DEFAULT_DRACO_DECODER_PATH,
  meshoptDecoderPath: options.meshoptDecoderPath,
});

/** The environment file a viewer with these options lights its avatar with. */
export const environmentOf = (options: PreloadOptions) =>
  environmentFile(options.environment ?? DEFAULT_ENVIRONMENT, options.environmentPath);

/**
 * Starts loading what a viewer with these options will show, its model(s) and environment,
 * before the viewer is rendered: a page that knows its model early (/embed, from its address)
 * calls it first thing, so the download and parse run while the page itself starts up. A
 * viewer then takes them from the same caches; an invalid source is left for it to report.
 */
export function preloadAvatar(options: PreloadOptions) {
  if (!isValidModelSource(options.modelSrc)) return;
  // The environment first: an .hdr or .exr gets its prefilter worker, which fetches the file
  // itself, before the model's download and parse take the main thread.
  void environmentTexture(environmentOf(options)).catch(() => {});
  for (const source of [options.modelSrc].flat()) preloadModel(source, decoderOptions(options));
}
