/**
 * The declared-size limits for the morph queue: a model over the declared-size limits fails its job before
 * glTF-Transform reads it, a morph that passes its time is stopped, and one user cannot queue
 * more than MAX_ACTIVE_MORPH_JOBS jobs, however many requests arrive at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { morphGenerateResultSchema } from '../contract/schemas';
import { OVERSIZED_MODELS } from '../core/files/test-models';
import { newId } from './ids';
import { MORPH_LIMITS } from './morph';
import { startMorphWorker } from './morph-worker';
import { MAX_ACTIVE_MORPH_JOBS } from './morph-queue-store';
import { fileUrl } from './storage';
import { dataOf, expectError, useTestApp } from './test-app';
import { readAvatar } from './test-files';

const t = useTestApp();
let developer = { token: '', id: '' };
const models = { body: '', source: '' };

/** Stores bytes without the upload checks (a file stored before the limits). */
async function store(bytes: Uint8Array): Promise<string> {
  const file = await t.storage.put(new Blob([new Uint8Array(bytes)]).stream(), {
    maxBytes: 100 * 1024 * 1024,
  });
  return fileUrl(file.key);
}

async function createAsset(type: string, modelUrl: string): Promise<string> {
  const id = newId();
  await t.db.query(
    `INSERT INTO assets (id, name, type, gender, model_url, position, created_at, updated_at)
     SELECT $1, $1, $2, 'female', $3, COALESCE(max(position), 0) + 1, $4, $4 FROM assets`,
    [id, type, modelUrl, t.clock.current],
  );
  return id;
}

const generate = (sourceAssetId: string, bodyAssetIds: string[], token = developer.token) =>
  t.post('/v1/morphed-assets/generate', { sourceAssetId, bodyAssetIds }, token);

/** Runs the queue until it is empty; answers the entries' status and error by id. */
async function runQueue() {
  const worker = startMorphWorker(
    { db: t.db, storage: t.storage, now: () => new Date(t.clock.current) },
    { concurrency: 0 },
  );
  while (await worker.runOnce());
  await worker.stop();
}

async function entry(id: string) {
  const { rows } = await t.db.query<{ status: string; error: string | null }>(
    'SELECT status, error FROM morph_queue WHERE id = $1',
    [id],
  );
  return rows[0];
}

beforeAll(async () => {
  await t.db.query('DELETE FROM morph_queue');
  const { token, _id } = await t.loginAs('developer');
  developer = { token, id: _id };
  models.body = await store(readAvatar('female-animation-catwalk.glb'));
  models.source = await store(readAvatar('spawn-effect.glb'));
});

describe('morph jobs over the limits', () => {
  it('fails a job whose source declares more than the limits, before reading it', async () => {
    const source = await createAsset('outfit', await store(OVERSIZED_MODELS.sparseVertices.glb()));
    const body = await createAsset('body', models.body);
    const [queued] = morphGenerateResultSchema.parse(dataOf(await generate(source, [body])));
    await runQueue();
    expect(await entry(queued!.id)).toEqual({
      status: 'failed',
      error: `The source model is over a limit: it ${OVERSIZED_MODELS.sparseVertices.reason}`,
    });
  });

  it('stops a morph that passes its time and fails its job with the reason', async () => {
    const source = await createAsset('outfit', models.source);
    const body = await createAsset('body', models.body);
    const [queued] = morphGenerateResultSchema.parse(dataOf(await generate(source, [body])));
    const { timeoutMs } = MORPH_LIMITS;
    MORPH_LIMITS.timeoutMs = 20;
    try {
      await runQueue();
    } finally {
      MORPH_LIMITS.timeoutMs = timeoutMs;
    }
    expect(await entry(queued!.id)).toEqual({
      status: 'failed',
      error: 'The morph took too long (stopped after 0.02 seconds)',
    });
  });
});

describe('the per-user cap on queued morph jobs', () => {
  it(`lets one user have at most ${MAX_ACTIVE_MORPH_JOBS} jobs queued or processing, even in a parallel burst`, async () => {
    const { token, _id } = await t.loginAs('developer');
    const source = await createAsset('outfit', models.source);
    const bodies = await Promise.all(
      Array.from({ length: MAX_ACTIVE_MORPH_JOBS }, () => createAsset('body', models.body)),
    );
    const half = MAX_ACTIVE_MORPH_JOBS / 2 + 1;
    // Three requests of 11 at once: only one fits under 20.
    const responses = await Promise.all(
      [0, 1, 2].map((i) => generate(source, bodies.slice(i * 4, i * 4 + half), token)),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 429, 429]);
    const refused = responses.find((r) => r.status === 429)!;
    expect(expectError(refused, 429, 'MORPH_QUEUE_FULL').message).toBe(
      `You have ${half} morph jobs queued or processing; at most ${MAX_ACTIVE_MORPH_JOBS} are ` +
        `allowed at once, so ${half} more cannot be queued until some finish`,
    );
    const active = async () =>
      (
        await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM morph_queue
           WHERE requested_by = $1 AND status IN ('queued', 'processing')`,
          [_id],
        )
      ).rows[0]!.n;
    expect(await active()).toBe(half);

    // Up to the cap is fine; one more is not. Another user is not held back.
    const rest = MAX_ACTIVE_MORPH_JOBS - half;
    expect((await generate(source, bodies.slice(0, rest), token)).status).toBe(200);
    expectError(await generate(source, bodies.slice(0, 1), token), 429, 'MORPH_QUEUE_FULL');
    expect((await generate(source, bodies.slice(0, 1))).status).toBe(200);
    expect(await active()).toBe(MAX_ACTIVE_MORPH_JOBS);

    // Finished jobs no longer count.
    await t.db.query(`UPDATE morph_queue SET status = 'failed' WHERE requested_by = $1`, [_id]);
    expect((await generate(source, bodies.slice(0, 1), token)).status).toBe(200);
  });
});
