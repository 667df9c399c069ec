/**
 * The PostgreSQL server and the S3 server (Ceph's RADOS Gateway) that tests of several app
 * instances share, as scripts/test.sh provides them: TEST_DATABASE_URL and TEST_S3_* when set
 * (CI sets both), otherwise started here with the same scripts (scripts/pg.sh,
 * scripts/ceph.sh) and stopped afterwards. A server that cannot be had is an error, never a
 * skipped test.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { S3Settings } from '../../server/config';
import { testS3Settings } from '../../server/test-storage';

export interface Service {
  /** The variables the script exported (PG_URL, S3_ENDPOINT…). */
  env: Record<string, string>;
  stop: () => Promise<void>;
}

/**
 * Runs `<start>` of `scripts/<script>` in a bash that stays up until stop() (or until this
 * process dies and closes its input), then runs `<stop>`: the servers never outlive the test.
 */
function startScriptService(script: string, start: string, stop: string, names: string[]) {
  const printed = names.map((name) => `echo "${name}=$${name}"`).join('; ');
  const child = spawn(
    'bash',
    [
      '-c',
      // A failed start exits (the script's start cleans up after itself).
      `source scripts/${script} && ${start} >&2 || exit 1; ${printed}; echo READY; read -r _; ${stop}`,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise<Service>((resolve, reject) => {
    const env: Record<string, string> = {};
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line === 'READY') resolve({ env, stop: () => (child.stdin.end(), exited) });
      const at = line.indexOf('=');
      if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
    });
    void exited.then(() => reject(new Error(`scripts/${script} ${start} failed:\n${log}`)));
  });
}

/** A PostgreSQL server: TEST_DATABASE_URL, or one of our own (scripts/pg.sh). */
export async function usePostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: async () => {} };
  if (process.env.CI === 'true') {
    throw new Error('CI=true but TEST_DATABASE_URL is not set: scripts/test.sh starts PostgreSQL');
  }
  const pg = await startScriptService('pg.sh', 'pg_start', 'pg_stop', ['PG_URL']);
  return { url: pg.env.PG_URL!, stop: pg.stop };
}

/** An S3 server (its bucket name left empty): TEST_S3_*, or a Ceph of our own (scripts/ceph.sh). */
export async function useS3(): Promise<{ settings: S3Settings; stop: () => Promise<void> }> {
  const given = testS3Settings();
  if (given) return { settings: given, stop: async () => {} };
  if (process.env.CI === 'true') {
    throw new Error('CI=true but TEST_S3_ENDPOINT is not set: scripts/test.sh starts Ceph');
  }
  const names = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];
  const ceph = await startScriptService('ceph.sh', 'ceph_start', 'ceph_stop', names);
  return {
    settings: {
      endpoint: ceph.env.S3_ENDPOINT,
      bucket: '',
      region: 'us-east-1',
      accessKeyId: ceph.env.S3_ACCESS_KEY_ID,
      secretAccessKey: ceph.env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: true,
    },
    stop: ceph.stop,
  };
}
