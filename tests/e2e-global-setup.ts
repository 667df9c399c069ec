/**
 * The end-to-end projects' global set-up: one server started on a fresh data folder migrates,
 * seeds the demo catalogue and stores its files, then stops; each test file's server starts
 * on a copy of that folder (tests/helpers/app.ts) instead of doing it all again (about 3 s a
 * file on 2 cores: initdb, 20 migrations, 130 demo files). It stops only once the demo models'
 * delivery versions are derived: a copy taken earlier had every file's server derive them
 * again at its start (about 5 s of CPU a file, beside its tests).
 *
 * The servers run the entry point compiled once here (scripts/build-server.ts, about a second),
 * not the sources through tsx: each of the run's ~45 server starts spends half the CPU.
 *
 * Vitest calls a global set-up once per project, and `npm test` runs the three end-to-end
 * projects in one run: they share one folder (about 12 s of seeding each), removed once the
 * last of them is done.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../scripts/build-server';
import { startServer } from './helpers/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated and seeded data folder (PGlite and files) to copy, never to use in place. */
    seededDataDir: string;
  }
}

/**
 * The run's seeded folder and how many projects still use it: on `globalThis`, since each
 * project loads this file as a module of its own (in the same process).
 */
const run = globalThis as {
  e2eSeed?: { removeFolders: () => Promise<void>; dir: Promise<string>; users: number };
};

/**
 * A temporary folder for the run, made the system's own (TMPDIR) for everything the run starts:
 * the test processes inherit it, and from them each file's server, its data and Chromium. What
 * they leave there goes with it at the end (a worker's Chromium is killed as the worker ends,
 * and Playwright left its profile behind: about 15 MB a run). Answers what removes it and puts
 * TMPDIR back.
 */
function runTemporaryFolder(): () => Promise<void> {
  const before = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'avatar-studio-e2e-run-'));
  process.env.TMPDIR = folder;
  return async () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    await browsersGone(folder);
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}

/** The processes whose command line names a path inside `folder` (Linux's /proc). */
function processesUsing(folder: string): number[] {
  if (!existsSync('/proc/self/cmdline')) return [];
  const inside = `${folder}/`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(inside);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/**
 * Waits for the Chromiums whose profiles lie in `folder` to end, killing those still there after
 * 15 s. Vitest tears the set-up down while it is still stopping the workers: a worker's
 * Playwright closes its Chromium as the worker goes, and that Chromium writes its profile as it
 * closes, so removing the folder meanwhile failed with ENOTEMPTY.
 */
async function browsersGone(folder: string) {
  const deadline = Date.now() + 15_000;
  let left = processesUsing(folder);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = processesUsing(folder);
  }
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  while (processesUsing(folder).length > 0 && Date.now() < deadline + 5_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Compiles the server into a folder of the project (where node finds its packages) for the
 * run's servers to start (E2E_SERVER_ENTRY, inherited as TMPDIR is). Answers what removes it.
 */
async function compiledServer(): Promise<() => void> {
  mkdirSync('.tmp', { recursive: true });
  const folder = mkdtempSync(join(process.cwd(), '.tmp', 'e2e-server-'));
  await buildServer(process.cwd(), folder);
  process.env.E2E_SERVER_ENTRY = join(folder, 'main.js');
  return () => {
    delete process.env.E2E_SERVER_ENTRY;
    rmSync(folder, { recursive: true, force: true });
  };
}

async function seed(): Promise<string> {
  const server = await startServer();
  const deadline = Date.now() + 120_000;
  while (!/Derived \d+ delivery versions/.test(server.output())) {
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the seeded server derived no delivery versions:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await server.stop({ keepData: true });
  return server.dataDir;
}

export default async function setup(project: TestProject) {
  if (!run.e2eSeed) {
    // The folder first: the seeded one is made in it.
    const removeFolder = runTemporaryFolder();
    let removeServer = () => {};
    run.e2eSeed = {
      removeFolders: async () => {
        await removeFolder();
        removeServer();
      },
      dir: compiledServer().then((remove) => {
        removeServer = remove;
        return seed();
      }),
      users: 0,
    };
  }
  const seeded = run.e2eSeed;
  seeded.users++;
  project.provide('seededDataDir', await seeded.dir);
  return async () => {
    if (--seeded.users > 0) return;
    if (run.e2eSeed === seeded) delete run.e2eSeed;
    await seeded.dir.catch(() => undefined);
    // The seeded folder and the compiled server with it.
    await seeded.removeFolders();
  };
}
