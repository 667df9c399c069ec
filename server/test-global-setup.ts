/**
 * The server project's global set-up: one migrated database that every test file's database
 * starts from (server/test-db.ts), instead of each running the migrations again. On PGlite a
 * data folder dumped to a file (initdb and the migrations cost about 3 s a file on 2 cores); on
 * PostgreSQL a template database that CREATE DATABASE copies.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgliteTemplate } from './db';
import { createPgTemplate } from './test-db';
import { migrate } from './migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data folder, or '' (PostgreSQL). */
    pgliteTemplate: string;
    /** A migrated database on TEST_DATABASE_URL's server to copy, or '' (PGlite). */
    pgTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = await createPgTemplate(serverUrl, migrate);
    project.provide('pgliteTemplate', '');
    project.provide('pgTemplate', template.name);
    return template.drop;
  }
  project.provide('pgTemplate', '');
  const dir = mkdtempSync(join(tmpdir(), 'avatar-studio-pglite-'));
  const file = join(dir, 'migrated.tar');
  const template = await pgliteTemplate(migrate);
  writeFileSync(file, Buffer.from(await template.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
