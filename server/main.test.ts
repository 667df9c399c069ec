/**
 * The real entry point as a child process: start, serve, shut down on a signal, restart on the
 * same data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { authResultSchema } from '../contract/schemas';
import { freePort, SERVER_ARGS } from '../tests/helpers/server';
import { tempDir } from '../tests/temp-dir';

const ROOT = join(import.meta.dirname, '..');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Running {
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForListening(running: Running): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (!running.output().includes('listening on')) {
    if (running.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`server did not start:\n${running.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function post(base: string, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: unknown } };
}

describe('server/main.ts', () => {
  it('serves, stops cleanly on SIGINT/SIGTERM and reuses its data on the next start', async () => {
    const dataDir = tempDir('avatar-studio-main-');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), DATA_DIR: dataDir, STATIC_DIR: join(dataDir, 'no-dist') };

    const first = start(env);
    await waitForListening(first);
    expect(first.output()).toContain('Seeded 300 demo assets');
    expect(first.output()).toContain('Admin: admin@avatar.studio / avatar-studio-admin (defaults');
    expect(first.output()).toContain('serving the API only');
    // The start ends with how to sign in: the lines a terminal shows last.
    const lines = first.output().trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(/^ {2}Admin: admin@avatar\.studio \/ avatar-studio-admin /);
    expect(lines.at(-1)).toMatch(/^ {2}Demo user: \S+@\S+ \/ \S+$/);
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    const signup = await post(base, '/v1/auth/signup', {
      email: 'keeper@example.com',
      password: 'password-123',
    });
    expect(signup.status).toBe(200);
    const session = authResultSchema.parse(signup.body.data);
    const mails = (await (await fetch(`${base}/dev/mailbox?to=keeper@example.com`)).json()) as {
      data: unknown[];
    };
    expect(mails.data).toHaveLength(1);
    // PGlite is single-process: a second server on the same data folder must not open it.
    const intruder = start({ ...env, PORT: String(await freePort()) });
    expect(await intruder.exited).toBe(1);
    expect(intruder.output()).toContain('Another server');
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    // What a crash leaves behind: a partial upload, and a file stored two days ago that no
    // row refers to. The stored demo files are referenced and stay.
    const files = join(dataDir, 'files');
    const demoFiles = readdirSync(files).sort();
    expect(demoFiles.length).toBeGreaterThan(0);
    writeFileSync(join(files, '.upload-0123456789abcdef01234567'), 'half a model');
    const orphan = join(files, '0123456789abcdef01234567.png');
    writeFileSync(orphan, 'never saved');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    utimesSync(orphan, twoDaysAgo, twoDaysAgo);

    const second = start(env);
    await waitForListening(second);
    expect(second.output()).not.toContain('Seeded');
    expect(second.output()).toContain('Removed 1 partial uploads and 1 unreferenced files.');
    expect(readdirSync(files).sort()).toEqual(demoFiles);
    // Same secret and same database: the old session still works.
    const me = await fetch(`${base}/v1/users/me`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(me.status).toBe(200);
    expect(
      (await post(base, '/v1/auth/refresh', { refreshToken: session.refreshToken })).status,
    ).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('refuses to start with an invalid configuration', async () => {
    const running = start({ PORT: 'abc', DATA_DIR: tempDir('avatar-bad-') });
    expect(await running.exited).toBe(1);
    expect(running.output()).toContain('PORT must be an integer from 1 to 65535 (got "abc")');
  }, 60_000);
});
