/**
 * The server project's global set-up: on PGlite, one migrated database dumped to a file that
 * every test file's database starts from (server/test-db.ts), instead of each running initdb
 * and the migrations again (about 3 s a file on 2 cores). Not on PostgreSQL, where creating a
 * database is quick.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgliteTemplate } from './db';
import { migrate } from './migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data folder, or '' (PostgreSQL). */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'avatar-studio-pglite-'));
  const file = join(dir, 'migrated.tar');
  const template = await pgliteTemplate(migrate);
  writeFileSync(file, Buffer.from(await template.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
