/** True for paths the API owns (JSON answers); the SPA never answers them. */
export function isApiPath(path: string): boolean {
  return /^\/(v1|private|dev|healthz)(\/|$)/.test(path);
}
