/**
 * A server killed with SIGKILL in the middle of an upload (no shutdown of any kind), and
 * another started on the same database and files: the half-written upload leaves no file and
 * no row once that server's sweep has run. The real entry point runs as child processes on a
 * PostgreSQL database of the test's own (`npm run drill -- kill` does the same for a morph job
 * and a delivery).
 */
import { request } from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { authResultSchema } from '../contract/schemas';
import { startServer, type TestServer } from '../tests/helpers/server';
import { createTestDb, type TestDb } from './test-db';
import { glbOfSize } from './test-files';
import { useAnswerCheck } from './test-app';

const answers = useAnswerCheck();

const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
const started: TestServer[] = [];
let testDb: TestDb | undefined;

afterAll(async () => {
  for (const server of started.splice(0)) await server.stop();
  await testDb?.close();
});

async function login(base: string): Promise<string> {
  const response = await answers.fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@avatar.studio', password: 'avatar-studio-admin' }),
  });
  return authResultSchema.parse(((await response.json()) as { data: unknown }).data).token;
}

/** Resolves once process `pid` is gone. */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(onPostgres)('a server killed mid-upload', () => {
  it('leaves no file and no row once the next server on the same database and files has swept', async () => {
    testDb = await createTestDb({ migrated: false });
    const env = {
      DATABASE_URL: testDb.url!,
      JWT_SECRET: 'a-secret-both-servers-share-0123456789',
      LOG_LEVEL: 'info',
    };
    const first = await startServer(env);
    started.push(first);
    const files = join(first.dataDir, 'files');
    const before = readdirSync(files).sort();
    const token = await login(first.url);

    // A 20 MB model of which 8 MB arrive, and then the server dies.
    const model = glbOfSize(20 * 1024 * 1024);
    const upload = request(`${first.url}/v1/uploads/model`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-length': String(model.byteLength),
        'content-type': 'model/gltf-binary',
      },
    });
    const answered = new Promise<string>((resolve) => {
      upload.on('response', (response) => resolve(`answered ${response.statusCode}`));
      upload.on('error', (error) => resolve(`cut off: ${error.message}`));
    });
    upload.write(model.subarray(0, 8 * 1024 * 1024));
    const partial = () =>
      readdirSync(files).filter(
        (name) => name.startsWith('.upload-') && statSync(join(files, name)).size > 0,
      );
    while (partial().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    process.kill(first.pid, 'SIGKILL');
    await gone(first.pid);
    expect(await answered).toMatch(/^cut off/);
    expect(partial()).toHaveLength(1);

    // The next start sees the partial file as old as it would be after 15 minutes.
    const second = await startServer(
      {
        ...env,
        CLOCK_AHEAD_DAYS: '1',
        NODE_OPTIONS: `--import=${resolve('tests/helpers/clock-ahead.mjs')}`,
      },
      { dataDir: first.dataDir },
    );
    started.push(second);
    expect(second.output()).toMatch(/Removed 1 partial uploads and 0 unreferenced files\./);
    expect(readdirSync(files).sort()).toEqual(before);
    const { rows } = await testDb.db.query<{ key: string }>('SELECT key FROM stored_files');
    expect(rows.filter((row) => !before.includes(row.key))).toEqual([]);
    // And the server that took over serves uploads.
    const again = await answers.fetch(`${second.url}/v1/uploads/model`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await login(second.url)}` },
      body: new Blob([glbOfSize(4096) as Uint8Array<ArrayBuffer>]),
    });
    expect(again.status).toBe(200);
  }, 180_000);
});
