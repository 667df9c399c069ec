/**
 * A bulk job on the embedded database (PGlite: one connection), in the real entry point: the
 * requests waiting for the database get through between its batches, so its starter sees it
 * move and an admin can stop it. (Back to back, its transactions kept the connection until the
 * job ended.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bulkJobSchema } from '../contract/bulk-jobs';
import { authResultSchema } from '../contract/schemas';
import { startServer, type TestServer } from '../tests/helpers/server';
import { createPgliteDb } from './db-pglite';

const ROWS = 5000;
let server: TestServer | undefined;

afterAll(async () => {
  await server?.stop();
});

async function call(path: string, token?: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server!.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return ((await response.json()) as { data: unknown }).data;
}

describe('a bulk job on PGlite', () => {
  it('lets a read of it through while it runs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bulk-rests-'));
    // A first start migrates and seeds; the assets go in while no server holds the database.
    server = await startServer({}, { dataDir });
    await server.stop({ keepData: true });
    const db = await createPgliteDb(join(dataDir, 'pg'));
    await db.exec(`INSERT INTO assets (id, name, type, gender, position, created_at, updated_at)
      SELECT 'ff' || lpad(to_hex(i), 22, '0'), 'Resting ' || i, 'hair', 'male', 1000000 + i,
             now(), now()
      FROM generate_series(1, ${ROWS}) AS i`);
    await db.close();
    server = await startServer({}, { dataDir });

    const { token } = authResultSchema.parse(
      await call('/v1/auth/login', undefined, {
        email: 'admin@avatar.studio',
        password: 'avatar-studio-admin',
      }),
    );
    const job = bulkJobSchema.parse(
      await call('/v1/bulk-jobs', token, { action: 'lock', filter: { search: 'Resting' } }),
    );
    expect(job.total).toBe(ROWS);
    // The worker claims it within its poll; each read after that waits for the database.
    let seen = job;
    while (seen.state === 'queued') {
      seen = bulkJobSchema.parse(await call(`/v1/bulk-jobs/${job.id}`, token));
    }
    expect(seen.state).toBe('running');
    expect(seen.done).toBeLessThan(ROWS);
  });
});
