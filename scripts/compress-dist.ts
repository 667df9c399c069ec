// After `vite build`: writes .br and .gz beside every compressible file in dist/, which the
// server sends (serveStatic precompressed) to browsers that accept them. Compressing once at
// build time allows the slowest, smallest settings (brotli 11, gzip 9).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

let count = 0;
for (const path of files(process.argv[2] ?? 'dist')) {
  const bytes = readFileSync(path);
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  count++;
}
console.log(`compressed ${count} files (.br, .gz)`);
