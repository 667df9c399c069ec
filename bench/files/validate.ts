/**
 * Upload validation on a 50 MB PNG (a real, decodable 3600 × 3600 RGBA image of random pixels,
 * deflated at level 1 in 64 KiB IDAT chunks), generated in memory: the time and bytes read of
 * (a) the header rules, (b) the header rules plus the chunk checksum walk, against (c) a full
 * decode (inflate every IDAT with node:zlib and unfilter the scanlines) as the baseline, and
 * our CRC-32 against node:zlib's native one. Run:
 * node --import tsx -e "import('./bench/files/validate.ts').then(m => m.benchFileValidation())"
 */
import { randomFillSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { crc32 as zlibCrc32, deflateSync, inflateSync } from 'node:zlib';
import type { ByteSource } from '../../core/files/bytes';
import { crc32 } from '../../core/files/crc32';
import { readImageHeader } from '../../core/files/image-header';
import { checkPngIntegrity } from '../../core/files/png-integrity';
import { ihdrChunk, pngChunk, pngFile } from '../../core/files/png-writer';
import { UPLOAD_RULES } from '../../core/files/rules';
import { formatBytes } from '../../core/files/format-bytes';
import { checkImageRules } from '../../core/files/validate';

const SIDE = 3600;
const CHANNELS = 4;
const IDAT_BYTES = 64 * 1024;

/** Scanlines of random bytes, each behind a filter type byte cycling through all five. */
function encodePng(): Uint8Array<ArrayBuffer> {
  const stride = SIDE * CHANNELS;
  const raw = new Uint8Array(SIDE * (stride + 1));
  randomFillSync(raw);
  for (let y = 0; y < SIDE; y++) raw[y * (stride + 1)] = y % 5;
  const data = deflateSync(raw, { level: 1 });
  const idat: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += IDAT_BYTES) {
    idat.push(pngChunk('IDAT', data.subarray(at, at + IDAT_BYTES)));
  }
  const header = ihdrChunk({ width: SIDE, height: SIDE, bitDepth: 8, colorType: 6 });
  return pngFile([header, ...idat, pngChunk('IEND')]);
}

/** The baseline: every IDAT inflated, every scanline unfiltered (8-bit RGBA only). */
function decodePng(png: Uint8Array): Uint8Array {
  const file = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const parts: Uint8Array[] = [];
  for (let at = 8; at < png.length;) {
    const length = file.getUint32(at);
    if (String.fromCharCode(...png.subarray(at + 4, at + 8)) === 'IDAT') {
      parts.push(png.subarray(at + 8, at + 8 + length));
    }
    at += 12 + length;
  }
  const filtered = inflateSync(Buffer.concat(parts));
  const stride = SIDE * CHANNELS;
  const pixels = new Uint8Array(SIDE * stride);
  for (let y = 0; y < SIDE; y++) {
    const type = filtered[y * (stride + 1)]!;
    const line = filtered.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    const up = out - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= CHANNELS ? pixels[out + x - CHANNELS]! : 0;
      const b = y > 0 ? pixels[up + x]! : 0;
      const c = x >= CHANNELS && y > 0 ? pixels[up + x - CHANNELS]! : 0;
      let predictor = 0;
      if (type === 1) predictor = a;
      else if (type === 2) predictor = b;
      else if (type === 3) predictor = (a + b) >>> 1;
      else if (type === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[out + x] = (line[x]! + predictor) & 0xff;
    }
  }
  return pixels;
}

/** A Blob that counts what the readers take from it. */
function counting(blob: Blob): ByteSource & { bytesRead: number } {
  return {
    size: blob.size,
    bytesRead: 0,
    slice(start?: number, end?: number) {
      const part = blob.slice(start, end);
      this.bytesRead += part.size;
      return part;
    },
  };
}

/** Median time (ms) and bytes read per run of `step` over `runs` runs. */
async function measure(blob: Blob, runs: number, step: (file: ByteSource) => Promise<unknown>) {
  const times: number[] = [];
  let bytesRead = 0;
  for (let i = 0; i < runs; i++) {
    const file = counting(blob);
    const started = performance.now();
    await step(file);
    times.push(performance.now() - started);
    bytesRead = file.bytesRead;
  }
  times.sort((x, y) => x - y);
  return { ms: times[Math.floor(times.length / 2)]!, bytesRead };
}

export async function benchFileValidation() {
  const png = encodePng();
  const blob = new Blob([png]);
  console.log(`PNG ${SIDE} × ${SIDE} RGBA, ${formatBytes(png.length)} (${png.length} bytes)`);

  const rules = UPLOAD_RULES.texture.validation;
  const headerRules = async (file: ByteSource) => {
    const result = await readImageHeader(file);
    if (result.ok) checkImageRules(result.header, rules);
  };
  const rows = [
    ['(a) header rules', await measure(blob, 50, headerRules)],
    [
      '(b) header rules + integrity',
      await measure(blob, 5, async (file) => {
        await headerRules(file);
        if (await checkPngIntegrity(file)) throw new Error('the generated PNG should be intact');
      }),
    ],
    [
      '(c) full decode (baseline)',
      await measure(blob, 3, async (file) => {
        decodePng(new Uint8Array(await file.slice(0, file.size).arrayBuffer()));
      }),
    ],
  ] as const;
  const baseline = rows[2][1].ms;
  const ratio = (ms: number) =>
    `${ms / baseline < 0.01 ? (ms / baseline).toExponential(1) : (ms / baseline).toFixed(3)}x`;
  console.log('step'.padEnd(32), 'median'.padStart(12), 'bytes read'.padStart(14), ' vs decode');
  for (const [name, { ms, bytesRead }] of rows) {
    console.log(
      name.padEnd(32),
      `${ms.toPrecision(3)} ms`.padStart(12),
      formatBytes(bytesRead).padStart(14),
      ` ${ratio(ms)}`,
    );
  }

  const crcRuns = 5;
  const time = (fn: () => number) => {
    const started = performance.now();
    for (let i = 0; i < crcRuns; i++) fn();
    return (performance.now() - started) / crcRuns;
  };
  const ours = time(() => crc32(png));
  const native = time(() => zlibCrc32(png));
  const throughput = (ms: number) => `${(png.length / 1024 / 1024 / (ms / 1000)).toFixed(0)} MB/s`;
  console.log(
    `CRC-32 over the file: slice-by-8 ${ours.toFixed(1)} ms (${throughput(ours)}), ` +
      `node:zlib ${native.toFixed(1)} ms (${throughput(native)}), ours ${(ours / native).toFixed(2)}x`,
  );
}
