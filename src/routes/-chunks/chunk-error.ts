/**
 * Whether an error is a screen's code failing to load (offline, or a deploy replaced it):
 * Chromium, Firefox and Safari word the failed dynamic import differently; webpack-style
 * bundlers name it ChunkLoadError.
 */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /^(Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed)/.test(
      error.message,
    )
  );
}
