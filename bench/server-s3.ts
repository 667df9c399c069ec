/**
 * Two instances on one PostgreSQL database and one S3 bucket (Ceph's RADOS Gateway, started
 * as the tests start it: tests/helpers/services.ts) under load (`npm run bench -- s3`): 50
 * concurrent 5 MB model uploads through POST /v1/uploads/model (the SPA's upload route),
 * round-robin over the instances, then 500 concurrent downloads, each file read from the
 * instance that did not receive it and checked against the uploaded bytes' SHA-256.
 *
 * Figures per phase: throughput (MB/s), p95 latency; per instance the growth of its resident
 * memory (RSS sampled every 50 ms from /proc, the phase's peak minus the figure before the
 * uploads, after one warm-up upload and download per instance; goal under 100 MB while
 * uploading; also from before the warm-up, "from cold"); files lost and files that read back
 * different. Baseline in the same run: one instance on PGlite and local disk, same load
 * (downloads from that one instance).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { MB } from '../core/files/rules';
import { startInstances } from '../tests/helpers/instances';
import { startServer, type TestServer } from '../tests/helpers/server';

const UPLOADS = 50;
const UPLOAD_BYTES = 5 * MB;
const DOWNLOADS = 500;
const SAMPLE_MS = 50;
const GOAL_GROWTH = 100 * MB;

/**
 * A valid .glb of UPLOAD_BYTES: a small JSON chunk declaring one buffer, and that buffer (a
 * BIN chunk) of random bytes, so every upload is different.
 */
function modelBytes(): Buffer {
  const binLength = UPLOAD_BYTES - 12 - 8 - 8 - 64;
  const json = Buffer.alloc(64, 0x20);
  json.write(JSON.stringify({ asset: { version: '2.0' }, buffers: [{ byteLength: binLength }] }));
  const header = Buffer.alloc(20);
  header.writeUInt32LE(0x46546c67, 0); // "glTF"
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(UPLOAD_BYTES, 8);
  header.writeUInt32LE(json.byteLength, 12);
  header.writeUInt32LE(0x4e4f534a, 16); // "JSON"
  const binHeader = Buffer.alloc(8);
  binHeader.writeUInt32LE(binLength, 0);
  binHeader.writeUInt32LE(0x004e4942, 4); // "BIN\0"
  return Buffer.concat([header, json, binHeader, randomBytes(binLength)]);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Samples the RSS of `pids` until stopped; answers each one's peak. */
function sampleRss(pids: number[]) {
  const peaks = pids.map(rssOf);
  const timer = setInterval(() => {
    pids.forEach((pid, i) => (peaks[i] = Math.max(peaks[i]!, rssOf(pid))));
  }, SAMPLE_MS);
  return () => {
    clearInterval(timer);
    pids.forEach((pid, i) => (peaks[i] = Math.max(peaks[i]!, rssOf(pid))));
    return peaks;
  };
}

const p95 = (ms: number[]) => [...ms].sort((x, y) => x - y)[Math.ceil(ms.length * 0.95) - 1]!;

async function login(url: string): Promise<string> {
  const response = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@avatar.studio', password: 'avatar-studio-admin' }),
  });
  return ((await response.json()) as { data: { token: string } }).data.token;
}

/** The SHA-256 of a download, hashed as it streams (500 bodies of 5 MB are never all held). */
async function downloadHash(url: string): Promise<string | undefined> {
  const response = await fetch(url);
  if (response.status !== 200 || !response.body) return undefined;
  const hash = createHash('sha256');
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    hash.update(read.value);
  }
  return hash.digest('hex');
}

interface Phase {
  mbPerS: number;
  p95Ms: number;
  /** Per instance, peak RSS minus RSS before the uploads (after the warm-up). */
  growth: number[];
  /** Per instance, peak RSS minus RSS before the warm-up. */
  coldGrowth: number[];
}

interface LoadResult {
  upload: Phase;
  download: Phase;
  /** Uploads that got no file address. */
  failedUploads: number;
  /** Downloads of stored files that did not answer 200 (files lost). */
  lost: number;
  different: number;
}

async function runLoad(servers: TestServer[]): Promise<LoadResult> {
  // The models first: generating them takes seconds, longer than the servers keep the login's
  // idle connection open (a reused closed connection would fail an upload client-side).
  const models = Array.from({ length: UPLOADS }, modelBytes);
  const hashes = models.map(sha256);
  const tokens = await Promise.all(servers.map((server) => login(server.url)));
  const pids = servers.map((server) => server.pid);
  const cold = pids.map(rssOf);
  // One upload and one download per instance first: what a running server has loaded once
  // (the S3 client's modules, the derivation's thread) is not growth under load. The growth
  // from before it (cold) is reported too.
  for (const [at, server] of servers.entries()) {
    const response = await fetch(`${server.url}/v1/uploads/model`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[at]!}`, 'x-file-name': 'warm-up.glb' },
      body: new Uint8Array(modelBytes()),
    });
    const { data } = (await response.json()) as { data: { url: string } };
    await downloadHash(`${server.url}${data.url}`);
  }
  const start = pids.map(rssOf);

  const uploadPeaks = sampleRss(pids);
  let began = performance.now();
  const uploads = await Promise.all(
    models.map(async (body, i) => {
      const at = i % servers.length;
      const sent = performance.now();
      try {
        const response = await fetch(`${servers[at]!.url}/v1/uploads/model`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens[at]!}`, 'x-file-name': `load-${i}.glb` },
          body: new Uint8Array(body),
        });
        const answer = (await response.json()) as { data?: { url: string }; message?: string };
        if (answer.message) console.log(`upload ${i}: ${response.status} ${answer.message}`);
        return { at, url: answer.data?.url, ms: performance.now() - sent };
      } catch (error) {
        console.log(`upload ${i}: ${String(error)} (${String((error as Error).cause)})`);
        return { at, url: undefined, ms: performance.now() - sent };
      }
    }),
  );
  const uploadSeconds = (performance.now() - began) / 1000;
  const uploadPeak = uploadPeaks();

  const downloadPeaks = sampleRss(pids);
  began = performance.now();
  const downloads = await Promise.all(
    Array.from({ length: DOWNLOADS }, async (_, d) => {
      const i = d % UPLOADS;
      const { at, url } = uploads[i]!;
      if (!url) return { i, hash: undefined, ms: 0 };
      const sent = performance.now();
      const other = servers[(at + 1) % servers.length]!;
      const hash = await downloadHash(`${other.url}${url}`);
      return { i, hash, ms: performance.now() - sent };
    }),
  );
  const downloadSeconds = (performance.now() - began) / 1000;
  const downloadPeak = downloadPeaks();
  const growth = (peaks: number[]) => ({
    growth: peaks.map((peak, i) => peak - start[i]!),
    coldGrowth: peaks.map((peak, i) => peak - cold[i]!),
  });

  return {
    upload: {
      mbPerS: (UPLOADS * UPLOAD_BYTES) / MB / uploadSeconds,
      p95Ms: p95(uploads.map((u) => u.ms)),
      ...growth(uploadPeak),
    },
    download: {
      mbPerS: (DOWNLOADS * UPLOAD_BYTES) / MB / downloadSeconds,
      p95Ms: p95(downloads.map((d) => d.ms)),
      ...growth(downloadPeak),
    },
    failedUploads: uploads.filter((u) => !u.url).length,
    lost: downloads.filter((d) => uploads[d.i]!.url && !d.hash).length,
    different: downloads.filter((d) => d.hash && d.hash !== hashes[d.i]).length,
  };
}

const mb = (bytes: number) => Number((bytes / MB).toFixed(1));

export async function benchServerS3(): Promise<void> {
  const quiet = { MORPH_WORKER: 'off' };
  const local = await startServer(quiet);
  let baseline: LoadResult;
  try {
    baseline = await runLoad([local]);
  } finally {
    await local.stop();
  }
  const instances = await startInstances(2, quiet);
  let shared: LoadResult;
  try {
    shared = await runLoad(instances.servers);
  } finally {
    await instances.stop();
  }
  const row = (name: string, r: LoadResult, phase: 'upload' | 'download') => ({
    setup: name,
    phase,
    'MB/s': Number(r[phase].mbPerS.toFixed(1)),
    'MB/s vs baseline': Number((r[phase].mbPerS / baseline[phase].mbPerS).toFixed(2)),
    'p95 ms': Math.round(r[phase].p95Ms),
    'p95 vs baseline': Number((r[phase].p95Ms / baseline[phase].p95Ms).toFixed(2)),
    'RSS growth MB (per instance)': r[phase].growth.map(mb).join(' / '),
    'from cold': r[phase].coldGrowth.map(mb).join(' / '),
  });
  console.table([
    row('1 instance, local disk (baseline)', baseline, 'upload'),
    row('1 instance, local disk (baseline)', baseline, 'download'),
    row('2 instances, Ceph S3', shared, 'upload'),
    row('2 instances, Ceph S3', shared, 'download'),
  ]);
  for (const [name, r] of [
    ['baseline', baseline],
    ['2 instances on S3', shared],
  ] as const) {
    console.log(
      `${name}: ${r.failedUploads} uploads failed, ${r.lost} stored files lost, ` +
        `${r.different} downloads with another checksum ` +
        `(of ${UPLOADS} uploads and ${DOWNLOADS} downloads)`,
    );
  }
  const worst = Math.max(...shared.upload.growth);
  console.log(
    `Growth while uploading on S3: at most ${mb(worst)} MB per instance ` +
      `(goal under ${mb(GOAL_GROWTH)} MB: ${worst < GOAL_GROWTH ? 'met' : 'NOT met'})`,
  );
}
