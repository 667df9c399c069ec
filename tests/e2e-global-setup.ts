/**
 * The end-to-end project's global set-up: one server started on a fresh data folder migrates,
 * seeds the demo catalogue and stores its files, then stops; each test file's server starts
 * on a copy of that folder (tests/helpers/app.ts) instead of doing it all again (about 3 s a
 * file on 2 cores: initdb, 20 migrations, 130 demo files). It stops only once the demo models'
 * delivery versions are derived: a copy taken earlier had every file's server derive them
 * again at its start (about 5 s of CPU a file, beside its tests).
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startServer } from './helpers/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated and seeded data folder (PGlite and files) to copy, never to use in place. */
    seededDataDir: string;
  }
}

export default async function setup(project: TestProject) {
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
  project.provide('seededDataDir', server.dataDir);
  return () => rmSync(server.dataDir, { recursive: true, force: true });
}
