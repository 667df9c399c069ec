/**
 * Security headers on every answer. Pages get a Content-Security-Policy with no inline script;
 * only `/embed` may be framed (by EMBED_FRAME_ANCESTORS, default any site), the back office
 * and the API never. API answers are never stored by caches.
 */
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config';
import { isApiPath, isDocsPath } from './paths';

/** In development the viewer may also load from any loopback port over http. */
const DEVELOPMENT_SOURCES = ['http://localhost:*', 'http://127.0.0.1:*'];

/**
 * What the app itself needs: its own scripts plus WebAssembly (the Draco decoder); models,
 * icons and environments from the app itself, `sources` (MODEL_ORIGINS) or handed over as
 * blob:/data: URLs (embedders); inline styles (set by React and react-aria on elements). No
 * inline or eval'd script, and no other host to send anything to.
 */
function contentSecurityPolicy(frameAncestors: string, sources: string[]): string {
  const from = ["'self'", 'data:', 'blob:', ...sources].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
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

export function securityHeaders(
  config: Pick<Config, 'embedFrameAncestors' | 'modelOrigins' | 'nodeEnv'>,
): MiddlewareHandler {
  const embedAncestors = config.embedFrameAncestors.join(' ');
  const sources = [
    ...config.modelOrigins,
    ...(config.nodeEnv === 'production' ? [] : DEVELOPMENT_SOURCES),
  ];
  const pagePolicy = contentSecurityPolicy("'none'", sources);
  const embedPolicy = contentSecurityPolicy(embedAncestors, sources);
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
    headers.set('Content-Security-Policy', embed ? embedPolicy : pagePolicy);
    // Older browsers read only this; it cannot express an allow-list, so /embed leaves it out.
    if (!embed) headers.set('X-Frame-Options', 'DENY');
  };
}
