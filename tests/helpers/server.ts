import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestServer {
  url: string;
  dataDir: string;
  /** The server's process id (its memory is read from /proc by the benches). */
  pid: number;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  /**
   * Stops the process with `signal` (SIGINT by default) and waits for its exit; its data folder
   * goes too unless `keepData` (for a restart).
   */
  stop: (options?: { keepData?: boolean; signal?: NodeJS.Signals }) => Promise<void>;
  /** The process's exit code once it has exited (null while running or when killed). */
  exitCode: () => number | null;
}

/** Where a server listens and keeps its data: a restart passes the ones it had. */
export interface ServerPlace {
  port?: number;
  dataDir?: string;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * How tests run the server's entry point (node's arguments). PGlite's 9 MB of WebAssembly is
 * compiled once, by the baseline compiler, as it is first run: V8 otherwise optimises all of it
 * at every start, 2.4 of a test server's 6 s of CPU until it answers (on these 2 cores), which a
 * server that lives for one test file never earns back. Its requests take no longer.
 */
export const SERVER_ARGS = [
  '--wasm-lazy-compilation',
  '--liftoff-only',
  '--import',
  'tsx',
  'server/main.ts',
];

/**
 * The end-to-end runs' server: the entry point their global set-up compiled (E2E_SERVER_ENTRY,
 * tests/e2e-global-setup.ts), as `npm start` runs it; a start then takes half the CPU it takes
 * through tsx. Elsewhere, the sources through tsx.
 */
function serverArgs(): string[] {
  const entry = process.env.E2E_SERVER_ENTRY;
  return entry ? [...SERVER_ARGS.slice(0, 2), '--enable-source-maps', entry] : SERVER_ARGS;
}

/** Whether nothing listens on `port` on loopback. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

let workerPort: number | undefined;

/**
 * The port this worker's app servers listen on, one file's after another's (each stops before
 * the next starts): pages kept from an earlier file find the same address, with the app's code
 * in their cache (page-pool.ts). A new free port when something else holds it.
 */
export async function reusablePort(): Promise<number> {
  if (workerPort === undefined || !(await isFree(workerPort))) workerPort = await freePort();
  return workerPort;
}

/**
 * Starts the real reference server (the built SPA from dist/ plus the API) on a throwaway
 * data folder and waits for /healthz.
 */
export async function startServer(
  env: Record<string, string> = {},
  place: ServerPlace = {},
): Promise<TestServer> {
  const port = place.port ?? (await freePort());
  const dataDir = place.dataDir ?? mkdtempSync(join(tmpdir(), 'avatar-studio-e2e-'));
  let log = '';
  // SERVER_PROF=<folder>: each server writes a V8 CPU profile there as it stops.
  const profile = process.env.SERVER_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVER_PROF}`]
    : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, ...serverArgs()], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: process.env.E2E_STATIC_DIR ?? 'dist',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not become healthy:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    pid: child.pid!,
    output: () => log,
    exitCode: () => child.exitCode,
    stop: async ({ keepData = false, signal = 'SIGINT' } = {}) => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(signal);
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Mail {
  to: string;
  subject: string;
  text: string;
  code?: string;
  /** Set on verification mails: sent back with the code to POST /v1/users/verify. */
  verificationId?: string;
  /** Set on invitations: the link that accepts it. */
  link?: string | null;
  kind?: string;
  sentAt: string;
}

/** Waits for the newest dev-mailbox message to `to` (optionally of one kind) and returns it. */
export async function waitForMail(
  url: string,
  to: string,
  kind?: string,
  after = 0,
): Promise<Mail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await fetch(`${url}/dev/mailbox?to=${encodeURIComponent(to)}`);
    const body = (await res.json()) as { data: Mail[] };
    const mail = body.data.find((m) => (!kind || m.kind === kind) && Date.parse(m.sentAt) >= after);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no ${kind ?? ''} mail for ${to}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
