/**
 * `npm run bench -- server-start [--runs 7]`: how long the reference API takes from its process
 * starting to its first 200 from GET /healthz, started as `npm run serve` starts it (the
 * compiled JavaScript, built here into a folder of its own) and through tsx (the sources, as
 * `npm run dev` and the tests run them), on one data folder that a first start has
 * migrated and seeded (embedded PostgreSQL, PGlite). The two are started in turn, so a
 * machine's load weighs on both alike; medians, and the ratio against tsx.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from '../scripts/build-server';
import { percentile } from './stats';

const median = (values: number[]) => percentile(values, 50);

/** Milliseconds from spawning the server with `args` to its first healthy answer. */
async function timeStart(args: string[], dataDir: string): Promise<number> {
  const port = 41000 + Math.floor(Math.random() * 1000);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      SMTP_URL: 'smtp://127.0.0.1:1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      JWT_SECRET: 'bench-server-start-secret-0123456789abcdef0123456789',
      ADMIN_PASSWORD: 'bench-start-Quiet-Harbour-48',
      REQUIRE_ADMIN_2FA: 'false',
      LOG_LEVEL: 'error',
      SHUTDOWN_DEREGISTER_MS: '0',
    },
    // Its log (a refused configuration is logged there) goes to ours.
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (performance.now() - started > 120_000) throw new Error('no answer in 120 s');
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  }
}

export async function benchServerStart(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { runs: { type: 'string', default: '7' } } });
  const runs = Math.max(1, Number(values.runs));
  // Inside the project: the compiled server imports its packages from node_modules.
  const outDir = join(process.cwd(), '.tmp', 'bench-server-start');
  await buildServer(process.cwd(), outDir);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-server-start-'));
  const starts = {
    compiled: ['--enable-source-maps', join(outDir, 'main.js')],
    tsx: ['--import', 'tsx', 'server/main.ts'],
  };
  try {
    const first = await timeStart(starts.compiled, dataDir);
    console.log(`first start (migrates and seeds the data folder): ${(first / 1000).toFixed(2)} s`);
    const times: Record<keyof typeof starts, number[]> = { compiled: [], tsx: [] };
    for (let run = 0; run < runs; run += 1) {
      for (const name of ['compiled', 'tsx'] as const) {
        times[name].push(await timeStart(starts[name], dataDir));
      }
    }
    const baseline = median(times.tsx);
    console.log(`start to the first 200 from /healthz, median of ${runs}:`);
    for (const name of ['compiled', 'tsx'] as const) {
      const ms = median(times[name]);
      console.log(
        `${name.padEnd(9)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${(ms / baseline).toFixed(2)}x`,
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}
