/**
 * Compresses the API's JSON answers for clients that accept it (brotli, else gzip): a list page
 * or the OpenAPI document shrinks five- to tenfold, which a phone on a slow network notices.
 * Only JSON: the event stream must reach the browser event by event, and files (built, stored,
 * models) are either compressed already or not worth it.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
/** Below this, compression costs more than the bytes it saves. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The encoding `accept` (an Accept-Encoding header) prefers among br and gzip, if any. */
function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  if (!accept) return undefined;
  const weights = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    weights.set(name.trim(), q === undefined ? 1 : Number(q) || 0);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : undefined;
}

/** Middleware: compresses JSON answers of 1 KiB or more, off the event loop (zlib's threads). */
export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (
      c.req.method === 'HEAD' ||
      // A range of a stored file is bytes of that file, whatever its type.
      res.status === 206 ||
      !res.body ||
      res.headers.has('Content-Encoding') ||
      !JSON_TYPE.test(res.headers.get('Content-Type') ?? '')
    ) {
      return;
    }
    const vary = res.headers.get('Vary');
    if (!vary) res.headers.set('Vary', 'Accept-Encoding');
    else if (!/accept-encoding/i.test(vary)) res.headers.set('Vary', `${vary}, Accept-Encoding`);
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    const length = Number(res.headers.get('Content-Length') ?? Infinity);
    if (!encoding || length < MIN_BYTES) return;
    // JSON answers are built whole in memory (c.json), so reading them back costs no latency.
    const bytes = new Uint8Array(await res.arrayBuffer());
    const body =
      bytes.byteLength < MIN_BYTES
        ? bytes
        : encoding === 'br'
          ? // Quality 5: most of brotli's gain at a few ms per 100 KB (11 is for build time).
            await brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 5,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
              },
            })
          : await gzipped(bytes, { level: 6 });
    // The ETag stays as it is: it names the record's version, which If-Match compares.
    c.res = new Response(body, { status: res.status, headers: res.headers });
    c.res.headers.set('Content-Length', String(body.byteLength));
    if (body !== bytes) c.res.headers.set('Content-Encoding', encoding);
  };
}
