/**
 * Security headers on every answer. Pages get a Content-Security-Policy whose only inline
 * script is the page's loader, allowed by its hash; only `/embed` may be framed (by EMBED_FRAME_ANCESTORS, default any site), the back office
 * and the API never. API answers are never stored by caches.
 */
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config';
import { isApiPath, isDocsPath } from './paths';

/** In development the viewer may also load from any loopback port over http. */
const DEVELOPMENT_SOURCES = ['http://localhost:*', 'http://127.0.0.1:*'];

/**
 * What the app itself needs: its own scripts plus WebAssembly (the Draco decoder), and the
 * inline scripts named by `scripts` (their hashes); models, icons and environments from the app
 * itself, `sources` (MODEL_ORIGINS) or handed over as blob:/data: URLs (embedders); inline
 * styles (set by React and react-aria on elements). No other inline or eval'd script, and no
 * other host to send anything to.
 */
function contentSecurityPolicy(
  frameAncestors: string,
  sources: string[],
  scripts: readonly string[] = [],
): string {
  const from = ["'self'", 'data:', 'blob:', ...sources].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self' 'wasm-unsafe-eval'", ...scripts].join(' '),
    "style-src 'self' 'unsafe-inline'",
    `img-src ${from}`,
    `connect-src ${from}`,
    "worker-src 'self' blob:",
    "font-src 'self' data:",
    `media-src ${from}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/**
 * `inlineScripts`: the hashes of the inline scripts the app's pages carry (server/static.ts),
 * allowed on HTML answers only.
 */
export function securityHeaders(
  config: Pick<Config, 'embedFrameAncestors' | 'modelOrigins' | 'nodeEnv'>,
  inlineScripts: () => readonly string[] = () => [],
): MiddlewareHandler {
  const embedAncestors = config.embedFrameAncestors.join(' ');
  const sources = [
    ...config.modelOrigins,
    ...(config.nodeEnv === 'production' ? [] : DEVELOPMENT_SOURCES),
  ];
  const pagePolicy = contentSecurityPolicy("'none'", sources);
  const embedPolicy = contentSecurityPolicy(embedAncestors, sources);
  // The policy of the app's pages, with their inline scripts: built again when they change.
  let withScripts = { scripts: '', policy: pagePolicy };
  const appPagePolicy = () => {
    const scripts = inlineScripts();
    if (scripts.join(' ') !== withScripts.scripts) {
      withScripts = {
        scripts: scripts.join(' '),
        policy: contentSecurityPolicy("'none'", sources, scripts),
      };
    }
    return withScripts.policy;
  };
  return async (c, next) => {
    await next();
    const { headers } = c.res;
    const path = c.req.path;
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (isApiPath(path) && !isDocsPath(path)) {
      headers.set('Cache-Control', 'no-store');
      // A development page of the API (the dev mailbox) brings a policy of its own as strict.
      if (!headers.has('Content-Security-Policy')) {
        headers.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      }
      headers.set('X-Frame-Options', 'DENY');
      return;
    }
    const embed = path === '/embed' || path === '/embed/';
    const appPage = !embed && headers.get('Content-Type')?.startsWith('text/html');
    headers.set(
      'Content-Security-Policy',
      embed ? embedPolicy : appPage ? appPagePolicy() : pagePolicy,
    );
    // Older browsers read only this; it cannot express an allow-list, so /embed leaves it out.
    if (!embed) headers.set('X-Frame-Options', 'DENY');
  };
}
