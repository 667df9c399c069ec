/**
 * The compiled server as production runs it: built by `npm run build`'s server step, started
 * with plain node (no tsx), on PGlite in a throwaway data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authResultSchema, uploadResultSchema } from '../contract/schemas';
import { readAvatar } from '../server/test-files';
import { freePort } from '../tests/helpers/server';
import { tempDir } from '../tests/temp-dir';
import { buildServer } from './build-server';

const ROOT = join(import.meta.dirname, '..');
// Inside the project: the compiled server imports its packages from node_modules.
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const OUT = mkdtempSync(join(ROOT, '.tmp', 'build-server-'));

let child: ChildProcess | undefined;
let output = '';
let base = '';

beforeAll(async () => {
  await buildServer(ROOT, OUT);
  const port = await freePort();
  const dataDir = tempDir('avatar-studio-compiled-');
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--enable-source-maps', join(OUT, 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: join(dataDir, 'no-dist'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 45_000;
  for (;;) {
    const ready = await fetch(`${base}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the compiled server did not get ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(OUT, { recursive: true, force: true });
});

async function call(path: string, init: RequestInit & { token?: string } = {}) {
  const { token, ...rest } = init;
  const response = await fetch(`${base}${path}`, {
    ...rest,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(typeof rest.body === 'string' ? { 'content-type': 'application/json' } : {}),
    },
  });
  return { status: response.status, body: (await response.json()) as { data: unknown } };
}

describe('the compiled server (dist-server/)', () => {
  it('is JavaScript with source maps, and its migrations beside it', () => {
    const files = readdirSync(OUT);
    expect(files).toEqual(expect.arrayContaining(['main.js', 'validator.worker.js']));
    expect(files.filter((name) => name.endsWith('.ts'))).toEqual([]);
    const map = JSON.parse(readFileSync(join(OUT, 'main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((source) => source.endsWith('server/main.ts'))).toBe(true);
    expect(readdirSync(join(OUT, 'migrations'))).toEqual(
      readdirSync(join(ROOT, 'server/migrations')),
    );
  });

  it('starts with plain node, and runs uploads and validation in its worker threads', async () => {
    expect(output).toContain('Avatar Studio API listening on');
    const login = await call('/v1/auth/login', {
      method: 'POST',
      body: JSON.stringify({ email: 'admin@avatar.studio', password: 'avatar-studio-admin' }),
    });
    expect(login.status).toBe(200);
    const { token } = authResultSchema.parse(login.body.data);

    // The upload derives its delivery version in delivery.worker.
    const upload = await call('/v1/uploads/model', {
      method: 'POST',
      token,
      body: new Blob([readAvatar('spawn-effect.glb')]),
    });
    expect(upload.status).toBe(200);
    const { url } = uploadResultSchema.parse(upload.body.data);
    expect(output).toMatch(/Delivery derivation ended .*outcome=ready/);

    // The glTF validator runs in validator.worker.
    const check = await call('/v1/assets/validate', {
      method: 'POST',
      token,
      body: JSON.stringify({ modelUrl: url }),
    });
    expect(check.status).toBe(200);
    expect(check.body.data).toMatchObject({ valid: true, errors: [] });
  });
});
