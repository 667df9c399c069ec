/**
 * Several instances of the real server (server/main.ts) on one PostgreSQL database and one S3
 * bucket, as a deployment runs them (docs/operating.md "Several instances"), optionally behind a
 * round-robin proxy. The database and the bucket are new and removed afterwards; the
 * PostgreSQL and S3 servers are those of the tests (tests/helpers/services.ts).
 */
import { randomBytes } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { createTestDb } from '../../server/test-db';
import { s3TestStorage } from '../../server/test-storage';
import { startServer, type TestServer } from './server';
import { usePostgres, useS3 } from './services';

export interface Instances {
  servers: TestServer[];
  /** The settings every instance runs with (a restart passes them again). */
  env: Record<string, string>;
  /** The shared bucket, to look at what it holds. */
  bucket: { client: S3Client; name: string };
  /** Restarts instance `index` on its port with `env` on top of the shared settings. */
  restart(index: number, env?: Record<string, string>): Promise<TestServer>;
  stop(): Promise<void>;
}

/**
 * Starts `count` instances with `extraEnv` on top of the shared settings, and `ownEnv(i)` on top
 * of those for instance `i` at its first start. Everything started is also pushed to `stops`
 * (last first to run), so a caller whose wait ran out can still stop it.
 */
export async function startInstances(
  count: number,
  extraEnv: Record<string, string> = {},
  stops: (() => Promise<void>)[] = [],
  ownEnv: (index: number) => Record<string, string> = () => ({}),
): Promise<Instances> {
  const stop = async () => {
    while (stops.length > 0) await stops.pop()!().catch(() => {});
  };
  try {
    const postgres = await usePostgres();
    stops.push(postgres.stop);
    const s3 = await useS3();
    stops.push(s3.stop);
    process.env.TEST_DATABASE_URL = postgres.url;
    const db = await createTestDb({ migrated: false });
    stops.push(() => db.close());
    const store = await s3TestStorage(s3.settings);
    stops.push(() => store.close());
    const { client, bucket } = store.s3!;
    const env: Record<string, string> = {
      DATABASE_URL: db.url!,
      S3_ENDPOINT: s3.settings.endpoint!,
      S3_BUCKET: bucket,
      S3_REGION: s3.settings.region,
      S3_ACCESS_KEY_ID: s3.settings.accessKeyId!,
      S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey!,
      S3_FORCE_PATH_STYLE: 'true',
      // One secret, so a token one instance signed is good on the others.
      JWT_SECRET: randomBytes(32).toString('hex'),
      ...extraEnv,
    };
    const servers: TestServer[] = [];
    stops.push(async () => {
      await Promise.all(servers.map((server) => server.stop()));
    });
    // One after the other: the first applies the migrations and seeds.
    for (let i = 0; i < count; i++) servers.push(await startServer({ ...env, ...ownEnv(i) }));
    return {
      servers,
      env,
      bucket: { client, name: bucket },
      async restart(index, more = {}) {
        const old = servers[index]!;
        await old.stop({ keepData: true });
        const port = Number(new URL(old.url).port);
        servers[index] = await startServer({ ...env, ...more }, { port, dataDir: old.dataDir });
        return servers[index];
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
