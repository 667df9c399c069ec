/**
 * The address a request came from, for per-client limits. Behind a reverse proxy
 * (`TRUST_PROXY=true`) it is the last `X-Forwarded-For` entry, the one the proxy itself added;
 * earlier entries are whatever the client sent and are never trusted.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Config } from '../config';

export function clientAddress(c: Context, config: Pick<Config, 'trustProxy'>): string {
  if (config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // Requests made in process (app.request in tests) have no socket.
    return 'unknown';
  }
}
