// The delivery version's textures: WebP (what server/delivery-derive.ts makes) against KTX2/Basis
// (ETC1S and UASTC, encoded with ktx2-encoder's bundled basis_encoder.wasm, a devDependency of
// this bench only), on every textured fixture avatar, for bytes, decode time and GPU memory (the choice and
// why are in docs/api.md).
// - The same pixels go to both: each texture as the delivery resizes it (at most
//   DELIVERY_TEXTURE_SIZE a side); WebP is the delivery's own output (compressTextures, which
//   keeps an original that is smaller and within the size, as the delivery does).
// - Decode time is in headless Chromium (SwiftShader WebGL2, as the other benches): WebP is
//   createImageBitmap, then the upload (three's initTexture, mipmaps generated, gl.finish());
//   KTX2 is three's KTX2Loader (basis_transcoder from three/examples/jsm/libs/basis, served
//   here, in its worker) then the same upload. Medians of RUNS per texture, summed per avatar.
// - GPU memory: WebP becomes RGBA8 with a generated mip chain (w * h * 4 * 4/3); KTX2 is the
//   transcoded mip levels' bytes in the format KTX2Loader picked for this GPU (printed).
// Ratios are against WebP measured in the same run. Measurements only, never pass/fail.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Texture } from '@gltf-transform/core';
import { listTextureSlots } from '@gltf-transform/functions';
import { encodeToKTX2 } from 'ktx2-encoder';
import sharp from 'sharp';
import {
  compressTextures,
  DELIVERY_TEXTURE_SIZE,
  readDeliverable,
  WEBP_QUALITY,
} from '../server/delivery-derive';
import { launchBrowser } from '../tests/helpers/browser';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const AVATARS = here('../../shared/fixtures/avatars');
const THREE = here('../node_modules/three');
/** The fixture avatars with textures (female-animation-catwalk, the idles: none). */
const TEXTURED = ['male-emissive.glb', 'halfBodyAPIv2.glb', 'neutral-animated-mask.glb'];
const RUNS = 3;
/** The viewer bench's throttled download (bench/viewer/run.ts): 1.6 Mbps. */
const THROTTLED_BYTES_PER_S = (1.6 * 1024 * 1024) / 8;
const ORIGIN = 'http://textures.bench';
/** ETC1S quality (1-255) and effort (0-6): glTF-Transform's and toktx's defaults. */
const ETC1S = { qualityLevel: 128, compressionLevel: 2 };
/** Slots whose colours are sRGB; the others (normal, metal-rough, occlusion) are data. */
const SRGB_SLOTS = [
  'baseColorTexture',
  'emissiveTexture',
  'specularColorTexture',
  'sheenColorTexture',
];

const FORMATS = ['webp', 'etc1s', 'uastc'] as const;
type Format = (typeof FORMATS)[number];

interface Encoded {
  name: string;
  width: number;
  height: number;
  slots: string[];
  files: Record<Format, Uint8Array>;
  /** Encode time on this machine, ms (WebP: sharp; KTX2: basis_encoder.wasm, one thread). */
  encodeMs: Record<Format, number>;
}

interface Decoded {
  /** Decode or transcode, ms. */
  decodeMs: number;
  /** Upload (initTexture + gl.finish), ms. */
  uploadMs: number;
  gpuBytes: number;
  format: string;
}

async function rgba(image: Uint8Array) {
  const { data, info } = await sharp(image)
    .resize(DELIVERY_TEXTURE_SIZE, DELIVERY_TEXTURE_SIZE, {
      fit: 'inside',
      withoutEnlargement: true,
    })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, performance.now() - start];
}

/**
 * `encode` with the process's stdout muted: basis_encoder.wasm prints every slice it encodes
 * (its debug flag off or not) through console.log, bound when it loaded.
 */
async function quietly<T>(encode: () => Promise<T>): Promise<T> {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = () => true;
  try {
    return await encode();
  } finally {
    process.stdout.write = write;
  }
}

/** Every texture of one avatar, in the three encodings. */
async function encodeAvatar(name: string): Promise<Encoded[]> {
  const doc = await readDeliverable(new Uint8Array(readFileSync(join(AVATARS, name))));
  const textures = doc.getRoot().listTextures();
  const originals = new Map<Texture, Uint8Array>(textures.map((t) => [t, t.getImage()!]));
  const [, webpMs] = await timed(() => compressTextures(doc, WEBP_QUALITY));
  const out: Encoded[] = [];
  for (const [index, texture] of textures.entries()) {
    const pixels = await rgba(originals.get(texture)!);
    const slots = listTextureSlots(texture);
    const srgb = slots.some((slot) => SRGB_SLOTS.includes(slot));
    const normal = slots.includes('normalTexture');
    const common = {
      imageDecoder: () => Promise.resolve(pixels),
      generateMipmap: true,
      isSetKTX2SRGBTransferFunc: srgb,
      isPerceptual: srgb,
      isNormalMap: normal,
    };
    const [etc1s, etc1sMs] = await timed(() =>
      quietly(() => encodeToKTX2(new Uint8Array(0), { ...common, isUASTC: false, ...ETC1S })),
    );
    const [uastc, uastcMs] = await timed(() =>
      quietly(() =>
        encodeToKTX2(new Uint8Array(0), { ...common, isUASTC: true, needSupercompression: true }),
      ),
    );
    out.push({
      name: texture.getName() || `#${index}`,
      width: pixels.width,
      height: pixels.height,
      slots,
      files: { webp: texture.getImage()!, etc1s, uastc },
      // compressTextures is timed for all textures at once: shared out by texel count below.
      encodeMs: { webp: 0, etc1s: etc1sMs, uastc: uastcMs },
    });
  }
  const texels = out.reduce((sum, t) => sum + t.width * t.height, 0);
  for (const t of out) t.encodeMs.webp = (webpMs * t.width * t.height) / texels;
  return out;
}

/** The page: three, its KTX2Loader and its Basis transcoder, all served from node_modules. */
const PAGE = `<!doctype html><meta charset="utf-8">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { KTX2Loader } from 'three/addons/loaders/KTX2Loader.js';
const renderer = new THREE.WebGLRenderer();
const gl = renderer.getContext();
const ktx2 = new KTX2Loader().setTranscoderPath('/three/examples/jsm/libs/basis/').detectSupport(renderer);
const names = {};
for (const [key, value] of Object.entries(THREE)) if (typeof value === 'number' && /Format$/.test(key)) names[value] ??= key;
const bytesOf = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
function upload(texture) {
  const start = performance.now();
  renderer.initTexture(texture);
  gl.finish();
  return performance.now() - start;
}
window.bench = {
  extensions: () => gl.getSupportedExtensions().filter((e) => /compress/.test(e)),
  async webp(url, type) {
    const blob = new Blob([await bytesOf(url)], { type });
    const start = performance.now();
    const bitmap = await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    const decodeMs = performance.now() - start;
    const texture = new THREE.Texture(bitmap);
    texture.needsUpdate = true;
    const uploadMs = upload(texture);
    const gpuBytes = Math.round(bitmap.width * bitmap.height * 4 * (texture.generateMipmaps ? 4 / 3 : 1));
    texture.dispose();
    bitmap.close();
    return { decodeMs, uploadMs, gpuBytes, format: 'RGBA8 (RGBAFormat)' };
  },
  async ktx2(url) {
    const buffer = (await bytesOf(url)).buffer;
    const start = performance.now();
    const texture = await new Promise((resolve, reject) => ktx2.parse(buffer, resolve, reject));
    const decodeMs = performance.now() - start;
    const uploadMs = upload(texture);
    const gpuBytes = texture.mipmaps.reduce((sum, level) => sum + level.data.byteLength, 0);
    texture.dispose();
    return { decodeMs, uploadMs, gpuBytes, format: names[texture.format] ?? String(texture.format) };
  },
};
window.ready = true;
</script>`;

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript',
  wasm: 'application/wasm',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
  ktx2: 'image/ktx2',
};

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const kb = (n: number) => `${(n / 1000).toFixed(0)} KB`;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

export async function benchTextures() {
  const avatars: [string, Encoded[]][] = [];
  for (const name of TEXTURED) {
    const start = performance.now();
    avatars.push([name, await encodeAvatar(name)]);
    console.log(`encoded ${name} in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  }
  const files = new Map<string, { body: Uint8Array; type: string }>();
  const mimeOf = (bytes: Uint8Array) =>
    bytes[0] === 0xff ? 'image/jpeg' : bytes[0] === 0x89 ? 'image/png' : 'image/webp';
  for (const [avatar, textures] of avatars)
    for (const [i, t] of textures.entries())
      for (const format of FORMATS)
        files.set(`/tex/${avatar}/${i}.${format}`, {
          body: t.files[format],
          type: format === 'webp' ? mimeOf(t.files.webp) : CONTENT_TYPES.ktx2!,
        });

  const { browser, close } = await launchBrowser({ webgl: true });
  const decoded = new Map<string, Decoded>();
  let transcoderStartMs: number;
  let extensions: string[];
  try {
    const page = await browser.newPage();
    await page.route(
      (url) => url.origin === ORIGIN,
      (route) => {
        const path = new URL(route.request().url()).pathname;
        if (path === '/') return route.fulfill({ body: PAGE, contentType: 'text/html' });
        const file = files.get(path);
        if (file) return route.fulfill({ body: Buffer.from(file.body), contentType: file.type });
        if (path.startsWith('/three/')) {
          const body = readFileSync(join(THREE, path.slice('/three/'.length)));
          return route.fulfill({ body, contentType: CONTENT_TYPES[path.split('.').pop()!] });
        }
        return route.fulfill({ status: 404 });
      },
    );
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready);
    type Bench = {
      extensions(): string[];
      webp(url: string, type: string): Promise<Decoded>;
      ktx2(url: string): Promise<Decoded>;
    };
    extensions = await page.evaluate(() =>
      (window as unknown as { bench: Bench }).bench.extensions(),
    );
    const decode = (url: string, format: Format) =>
      page.evaluate(
        ([url, format, type]) => {
          const bench = (window as unknown as { bench: Bench }).bench;
          return format === 'webp' ? bench.webp(url, type) : bench.ktx2(url);
        },
        [url, format, files.get(url)!.type] as const,
      );
    // The transcoder's first use: fetching and compiling it in KTX2Loader's workers.
    const first = await decode(`/tex/${TEXTURED[0]}/0.etc1s`, 'etc1s');
    transcoderStartMs = first.decodeMs;
    await decode(`/tex/${TEXTURED[0]}/0.webp`, 'webp');
    for (const [avatar, textures] of avatars)
      for (const i of textures.keys())
        for (const format of FORMATS) {
          const url = `/tex/${avatar}/${i}.${format}`;
          const runs: Decoded[] = [];
          for (let run = 0; run < RUNS; run++) runs.push(await decode(url, format));
          decoded.set(url, {
            decodeMs: median(runs.map((r) => r.decodeMs)),
            uploadMs: median(runs.map((r) => r.uploadMs)),
            gpuBytes: runs[0]!.gpuBytes,
            format: runs[0]!.format,
          });
        }
  } finally {
    await close();
  }

  const transcoder = ['basis_transcoder.js', 'basis_transcoder.wasm'].map((f) =>
    readFileSync(join(THREE, 'examples/jsm/libs/basis', f)),
  );
  const transcoderGzip = sum(transcoder.map((f) => gzipSync(f, { level: 9 }).byteLength));
  console.log(
    `\nChromium (SwiftShader) compressed-texture extensions: ${extensions.join(', ') || 'none'}`,
  );
  console.log(
    `Basis transcoder the viewer would add: ${kb(sum(transcoder.map((f) => f.byteLength)))} ` +
      `(${kb(transcoderGzip)} gzip -9); ` +
      `its first use (fetch, compile in the workers, first texture) ${transcoderStartMs.toFixed(0)} ms`,
  );
  const formatsSeen = (format: Format) =>
    [
      ...new Set([...decoded].filter(([url]) => url.endsWith(format)).map(([, d]) => d.format)),
    ].join(', ');
  console.log(
    `Formats on the GPU: webp ${formatsSeen('webp')}; etc1s ${formatsSeen('etc1s')}; uastc ${formatsSeen('uastc')}`,
  );
  console.log(
    `\nPer avatar, its textures summed (decode and upload: medians of ${RUNS} runs per texture; encode: this machine, one thread); x = against WebP`,
  );
  for (const [avatar, textures] of avatars) {
    const texels = sum(textures.map((t) => t.width * t.height));
    console.log(
      `\n${avatar}: ${textures.length} textures, ${(texels / 1e6).toFixed(2)} Mtexels at most ${DELIVERY_TEXTURE_SIZE} px a side`,
    );
    console.log(
      'format'.padEnd(8),
      'bytes'.padStart(16),
      'decode ms'.padStart(16),
      'upload ms'.padStart(16),
      'GPU bytes'.padStart(18),
      'encode s'.padStart(10),
    );
    const totals = (format: Format) => {
      const of = (i: number) => decoded.get(`/tex/${avatar}/${i}.${format}`)!;
      return {
        bytes: sum(textures.map((t) => t.files[format].byteLength)),
        decodeMs: sum(textures.map((_, i) => of(i).decodeMs)),
        uploadMs: sum(textures.map((_, i) => of(i).uploadMs)),
        gpuBytes: sum(textures.map((_, i) => of(i).gpuBytes)),
        encodeS: sum(textures.map((t) => t.encodeMs[format])) / 1000,
      };
    };
    const webp = totals('webp');
    const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}x`;
    for (const format of FORMATS) {
      const t = totals(format);
      console.log(
        format.padEnd(8),
        `${kb(t.bytes)} ${ratio(t.bytes, webp.bytes)}`.padStart(16),
        `${t.decodeMs.toFixed(0)} ${ratio(t.decodeMs, webp.decodeMs)}`.padStart(16),
        `${t.uploadMs.toFixed(0)} ${ratio(t.uploadMs, webp.uploadMs)}`.padStart(16),
        `${mb(t.gpuBytes)} ${ratio(t.gpuBytes, webp.gpuBytes)}`.padStart(18),
        t.encodeS.toFixed(1).padStart(10),
      );
    }
    const seconds = (bytes: number) => `${(bytes / THROTTLED_BYTES_PER_S).toFixed(1)} s`;
    console.log(
      `at 1.6 Mbps (the viewer bench's throttled case): webp ${seconds(webp.bytes)}, ` +
        `etc1s ${seconds(totals('etc1s').bytes)} and uastc ${seconds(totals('uastc').bytes)}, ` +
        `each + ${seconds(transcoderGzip)} for the transcoder on a first visit`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchTextures();
