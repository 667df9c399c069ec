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

/** The address of the module a failed dynamic import names (Chromium's and Firefox's words). */
function moduleAddressOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return /(https?:\/\/\S+\.js)\b/.exec(error.message)?.[1];
}

/**
 * Tries a screen whose code failed to load again. Chromium keeps a module that failed for the
 * page's lifetime, so an import in place fails again without asking the server: once the server
 * answers again, the page is loaded anew (its address keeps the screen). While it does not, the
 * import is tried in place, which keeps the app's own message instead of the browser's offline
 * page.
 */
export async function retryChunk(error: unknown, inPlace: () => void): Promise<void> {
  try {
    const probe = await fetch(moduleAddressOf(error) ?? window.location.href, {
      method: 'HEAD',
      cache: 'no-store',
    });
    if (probe.ok) {
      window.location.reload();
      return;
    }
  } catch {
    // Still offline: the error stays, in the app.
  }
  inPlace();
}
