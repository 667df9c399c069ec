/** True for paths the API owns (JSON answers); the SPA never answers them. */
export function isApiPath(path: string): boolean {
  return /^\/(v1|private|dev|healthz|readyz|metrics)(\/|$)/.test(path);
}

/** The API's documentation page (server/routes/openapi.ts): a page, with a page's headers. */
export const DOCS_PATH = '/v1/docs';

/** True for the documentation page and its files. */
export function isDocsPath(path: string): boolean {
  return path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`);
}
