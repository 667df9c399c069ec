// After `vite build`: writes .br and .gz beside every compressible file in dist/, which the
// server sends (serveStatic precompressed) to browsers that accept them. Compressing once at
// build time allows the slowest, smallest settings (brotli 11, gzip 9). The files compress on
// libuv's thread pool, all cores at once (one at a time left a core of 2 idle for 10 s).
import { readdirSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

// .pmrem: the prefiltered environment presets (RGB9E5 byte planes), 17-36% smaller with brotli.
// Source maps stay uncompressed: only development serves them (server/static.ts), and a
// compressed copy is one more name to refuse in production.
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|wasm|pmrem)$/;
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (COMPRESSIBLE.test(entry.name) && statSync(path).size >= MIN_BYTES) yield path;
  }
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function compress(path: string) {
  const bytes = await readFile(path);
  await Promise.all([
    gzipped(bytes, { level: 9 }).then((out) => writeFile(`${path}.gz`, out)),
    brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).then((out) =>
      writeFile(`${path}.br`, out),
    ),
  ]);
}

const paths = [...files(process.argv[2] ?? 'dist')];
await Promise.all(paths.map(compress));
console.log(`compressed ${paths.length} files (.br, .gz)`);
