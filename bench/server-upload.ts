/**
 * Server memory while a 50 MB model uploads (POST /v1/uploads/model through the app, in
 * process, body streamed without Content-Length): the peak growth of RSS and of live memory
 * (heap plus buffers right after a full collection, sampled every MiB) over the state before
 * the upload, against the same figures for a 1 MB upload. Streamed to
 * disk, the 50 MB upload should grow memory by far less than its size (target under 20 MB).
 * Run: node --import tsx -e "import('./bench/server-upload.ts').then(m => m.benchServerUpload())"
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MB } from '../core/files/rules';
import { createApp } from '../server/app';
import { createPgliteDb } from '../server/db';
import { migrate } from '../server/migrate';
import { createLocalStorage } from '../server/storage';
import { signedInBenchApp } from './server-app';

const CHUNK = 64 * 1024;
const TARGET_GROWTH = 20 * MB;

// Full collections measure live memory (what the upload retains), not garbage awaiting GC.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A generated .glb of `size` bytes (valid header and one JSON chunk of zeros), produced chunk by chunk as the
 * server reads it so the generator holds no copy; calls `sample` at every chunk.
 */
function glbStream(size: number, sample: () => void): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      sample();
      if (sent >= size) return controller.close();
      const chunk = new Uint8Array(Math.min(CHUNK, size - sent));
      if (sent === 0) {
        const view = new DataView(chunk.buffer);
        view.setUint32(0, 0x46546c67, true); // "glTF"
        view.setUint32(4, 2, true);
        view.setUint32(8, size, true);
        view.setUint32(12, size - 20, true); // one JSON chunk fills the rest
        view.setUint32(16, 0x4e4f534a, true); // "JSON"
      }
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

/** Bytes the heap and buffers hold right after a full collection: what is really retained. */
function liveBytes(): number {
  gc();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return heapUsed + external + arrayBuffers;
}

/** Every this many chunks (1 MiB) the live memory is measured (a full collection each time). */
const LIVE_SAMPLE_EVERY = MB / CHUNK;

async function measure(app: ReturnType<typeof createApp>, token: string, size: number) {
  const baseline = { rss: process.memoryUsage().rss, live: liveBytes() };
  const peak = { ...baseline };
  let pulls = 0;
  const sample = () => {
    pulls += 1;
    peak.rss = Math.max(peak.rss, process.memoryUsage().rss);
    if (pulls % LIVE_SAMPLE_EVERY === 0) peak.live = Math.max(peak.live, liveBytes());
  };
  const started = performance.now();
  const response = await app.request('/v1/uploads/model', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: glbStream(size, sample),
    duplex: 'half',
  } as RequestInit);
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`upload of ${size} bytes: ${body}`);
  return { size, ms, rss: peak.rss - baseline.rss, live: peak.live - baseline.live };
}

/** Uploads 1 MB (baseline) and 50 MB and prints the memory growth of each. */
export async function benchServerUpload(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'avatar-studio-bench-upload-'));
  const db = await createPgliteDb();
  try {
    await migrate(db);
    const storage = createLocalStorage(join(dataDir, 'files'));
    const { app, token } = await signedInBenchApp(db, { dataDir, storage });

    await measure(app, token, 1 * MB); // warm-up: first-call compilation and buffers
    const results = [await measure(app, token, 1 * MB), await measure(app, token, 50 * MB)];
    const mb = (n: number) => Number((n / MB).toFixed(1));
    console.table(
      results.map((r) => ({
        upload: `${mb(r.size)} MB`,
        'ms (with GC sampling)': Number(r.ms.toFixed(0)),
        'peak RSS growth MB': mb(r.rss),
        'peak live heap+buffers growth MB': mb(r.live),
      })),
    );
    const [small, large] = results as [(typeof results)[0], (typeof results)[0]];
    const extra = Math.max(large.rss - small.rss, large.live - small.live);
    console.log(
      `50 MB upload: ${mb(extra)} MB more memory than the 1 MB baseline ` +
        `(target under ${mb(TARGET_GROWTH)} MB: ${extra < TARGET_GROWTH ? 'met' : 'NOT met'})`,
    );
  } finally {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
