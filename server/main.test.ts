/**
 * The real entry point as a child process: start, serve, shut down on a signal, restart on the
 * same data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authResultSchema } from '../contract/schemas';
import { startRelay } from '../tests/helpers/relay';
import { freePort, SERVER_ARGS } from '../tests/helpers/server';
import { useS3 } from '../tests/helpers/services';
import { tempDir } from '../tests/temp-dir';
import { createPgliteDb } from './db';
import { STOPPING_RETRY_MS } from './event-stream';
import { readAvatar } from './test-files';
import { s3TestStorage } from './test-storage';
import { useAnswerCheck } from './test-app';

const answers = useAnswerCheck();

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
  const response = await answers.fetch(`${base}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: unknown } };
}

describe('server/main.ts', () => {
  it('serves, stops cleanly on SIGINT, reuses its data on the next start, and on SIGTERM answers /readyz 503 and serves new connections for SHUTDOWN_DEREGISTER_MS, then stops', async () => {
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
    expect(await (await answers.fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    const signup = await post(base, '/v1/auth/signup', {
      email: 'keeper@example.com',
      password: 'password-123',
    });
    expect(signup.status).toBe(200);
    const session = authResultSchema.parse(signup.body.data);
    const mails = (await (
      await answers.fetch(`${base}/dev/mailbox?to=keeper@example.com`)
    ).json()) as {
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

    // The next start stays reachable a while after SIGTERM, as it would behind a proxy.
    const second = start({ ...env, SHUTDOWN_DEREGISTER_MS: '3000' });
    await waitForListening(second);
    expect(second.output()).not.toContain('Seeded');
    expect(second.output()).toContain('Removed 1 partial uploads and 1 unreferenced files.');
    expect(readdirSync(files).sort()).toEqual(demoFiles);
    // Same secret and same database: the old session still works.
    const me = await answers.fetch(`${base}/v1/users/me`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(me.status).toBe(200);
    expect(
      (await post(base, '/v1/auth/refresh', { refreshToken: session.refreshToken })).status,
    ).toBe(200);

    expect((await answers.fetch(`${base}/readyz`)).status).toBe(200);
    const signalled = Date.now();
    second.child.kill('SIGTERM');
    await vi.waitFor(async () => expect((await answers.fetch(`${base}/readyz`)).status).toBe(503), {
      timeout: 2000,
      interval: 20,
    });
    // A request the proxy sent before its health check saw that 503, on a new connection: it is
    // answered, not refused or reset.
    const late = await answers.fetch(`${base}/healthz`, { headers: { connection: 'close' } });
    expect(late.status).toBe(200);
    expect(await second.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(3000);
    expect(second.output()).toContain('serving for 3000 ms more');
  }, 120_000);

  it('on SIGTERM refuses connections, lets an upload finish, ends streams with a retry hint, hands its morph job back and exits 0', async () => {
    // The files in a bucket behind a relay the test can hold: the job then waits on its model.
    const s3 = await useS3();
    const bucket = await s3TestStorage(s3.settings);
    const relay = await startRelay(new URL(s3.settings.endpoint!));
    const dataDir = tempDir('avatar-studio-stop-');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const running = start({
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: join(dataDir, 'x'),
      S3_ENDPOINT: relay.url,
      S3_BUCKET: bucket.s3!.bucket,
      S3_REGION: s3.settings.region,
      S3_ACCESS_KEY_ID: s3.settings.accessKeyId!,
      S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey!,
      S3_FORCE_PATH_STYLE: 'true',
    });
    try {
      await waitForListening(running);
      const login = await post(base, '/v1/auth/login', {
        email: 'admin@avatar.studio',
        password: 'avatar-studio-admin',
      });
      const { token } = authResultSchema.parse(login.body.data);
      const bearer = { authorization: `Bearer ${token}` };
      const get = async (path: string) =>
        (
          (await (await answers.fetch(`${base}${path}`, { headers: bearer })).json()) as {
            data: unknown;
          }
        ).data;

      // An open event stream.
      const stream = await answers.fetch(`${base}/v1/events`, {
        headers: { ...bearer, accept: 'text/event-stream' },
      });
      expect(stream.status).toBe(200);
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let received = '';
      const streamEnded = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return true;
          received += value;
        }
        // Cut rather than ended (the test failed and killed the server).
      })().catch(() => false);

      // An upload under way: half of its bytes sent, the rest after the signal.
      const model = readAvatar('spawn-effect.glb');
      const upload = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/uploads/model',
        headers: { ...bearer, 'content-length': String(model.byteLength), 'x-file-name': 'fx.glb' },
      });
      const uploaded = new Promise<{ status: number; body: string }>((resolve, reject) => {
        upload.on('response', (answer) => {
          let body = '';
          answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
        });
        upload.on('error', reject);
      });
      upload.write(model.subarray(0, model.byteLength / 2));

      // A morph job this server has claimed and that waits for the bucket: any entry it claims
      // from now on stops at its first read or write of a file. One more entry makes sure there
      // is one to claim.
      relay.hold(true);
      const heldAt = new Date();
      const [source] = (await get('/v1/assets?type=outfit&limit=1')) as { id: string }[];
      const [body] = (await get('/v1/assets?type=body&limit=1')) as { id: string }[];
      const queued = await post(
        base,
        '/v1/morphed-assets/generate',
        { sourceAssetId: source!.id, bodyAssetIds: [body!.id] },
        token,
      );
      expect(queued.status).toBe(200);
      const claimedSince = async (since: Date) => {
        const entries = (await get('/v1/morphed-asset-queue?status=processing&limit=100')) as {
          id: string;
          updatedAt: string;
        }[];
        return entries.filter((entry) => new Date(entry.updatedAt) >= since);
      };
      let claimed: { id: string } | undefined;
      await vi.waitFor(
        async () => {
          [claimed] = await claimedSince(heldAt);
          expect(claimed).toBeDefined();
        },
        { timeout: 30_000, interval: 50 },
      );

      const signalled = Date.now();
      running.child.kill('SIGTERM');
      // The port closes at once: a proxy's next connection goes to another instance.
      await vi.waitFor(
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(port, '127.0.0.1');
            socket.on('connect', () => {
              socket.destroy();
              reject(new Error('still accepting connections'));
            });
            socket.on('error', (error: NodeJS.ErrnoException) =>
              error.code === 'ECONNREFUSED' ? resolve() : reject(error),
            );
          }),
        { timeout: 2000, interval: 50 },
      );
      // The stream ends with a hint to resume soon (elsewhere, from its last event id).
      expect(await streamEnded).toBe(true);
      const retry = /(?:^|\n\n)retry: (\d+)\n\n$/.exec(received);
      expect(Number(retry?.[1])).toBeGreaterThanOrEqual(STOPPING_RETRY_MS.min);
      expect(Number(retry?.[1])).toBeLessThanOrEqual(STOPPING_RETRY_MS.max);
      // The upload in progress is finished and answered.
      relay.hold(false);
      upload.end(model.subarray(model.byteLength / 2));
      const answer = await uploaded;
      expect(answer.status, answer.body).toBe(200);
      expect(await running.exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(running.output()).toContain('Handed back 1 morph entries');

      // The job waits in the queue for another server, not for its lease to run out.
      const db = await createPgliteDb(join(dataDir, 'pg'));
      try {
        const { rows } = await db.query<{ id: string; status: string }>(
          `SELECT id, status FROM morph_queue WHERE status = 'processing' AND updated_at >= $1
           UNION ALL SELECT id, status FROM morph_queue WHERE id = $2`,
          [heldAt, claimed!.id],
        );
        expect(rows).toEqual([{ id: claimed!.id, status: 'queued' }]);
      } finally {
        await db.close();
      }
    } finally {
      relay.close();
      await bucket.close();
      await s3.stop();
    }
  }, 120_000);

  it('refuses to start with an invalid configuration', async () => {
    const running = start({ PORT: 'abc', DATA_DIR: tempDir('avatar-bad-') });
    expect(await running.exited).toBe(1);
    expect(running.output()).toContain('PORT must be an integer from 1 to 65535 (got "abc")');
  }, 60_000);
});
