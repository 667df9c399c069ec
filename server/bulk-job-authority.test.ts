/**
 * Who a bulk job answers to: every batch runs with its starter's authority as it is then, and
 * admins see every user's jobs and stop any of them (GET /private/v1/bulk-jobs, POST
 * /private/v1/bulk-jobs/{id}/cancel).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { bulkJobOfAnyoneSchema, bulkJobSchema, type BulkJob } from '../contract/bulk-jobs';
import { assetSchema } from '../contract/schemas';
import { startBulkWorker } from './bulk-job-worker';
import { dataOf, expectError, useTestApp } from './test-app';

const t = useTestApp();

const worker = () =>
  startBulkWorker(
    {
      db: t.db,
      now: () => new Date(t.clock.current),
      trashRetentionDays: 30,
      requireAdminSecondFactor: false,
    },
    { concurrency: 0, batchSize: 3 },
  );

let prefixes = 0;
/** `count` unlocked assets named `<prefix> <n>` (a search for the prefix matches them alone). */
async function newAssets(count: number, token: string): Promise<string> {
  prefixes += 1;
  const prefix = `Authority${prefixes}x${process.pid}`;
  for (let i = 0; i < count; i += 1) {
    const body = { name: `${prefix} ${i}`, type: 'hair', gender: 'male' };
    assetSchema.parse(dataOf(await t.post('/v1/assets', body, token)));
  }
  return prefix;
}

async function lockedCount(prefix: string): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM assets WHERE name LIKE $1 || ' %' AND locked",
    [prefix],
  );
  return rows[0]!.n;
}

/** A developer's job locking 9 assets (3 batches of 3), queued and not yet run. */
async function developersLockJob() {
  const admin = await t.loginAs('admin');
  const developer = await t.loginAs('developer');
  const prefix = await newAssets(9, admin.token);
  const job = bulkJobSchema.parse(
    dataOf(
      await t.post(
        '/v1/bulk-jobs',
        { action: 'lock', filter: { search: prefix } },
        developer.token,
      ),
    ),
  );
  return { admin, developer, prefix, job };
}

const readJob = async (id: string, token: string): Promise<BulkJob> =>
  bulkJobSchema.parse(dataOf(await t.get(`/v1/bulk-jobs/${id}`, token)));

describe("a bulk job runs with its starter's authority as it is now", () => {
  it('stops, saying why, when its starter is demoted after queueing it', async () => {
    const { admin, developer, prefix, job } = await developersLockJob();
    const demoted = await t.patch(
      `/private/v1/users/${developer._id}`,
      { role: 'user' },
      admin.token,
    );
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);

    while (await worker().runOnce());

    const ended = bulkJobOfAnyoneSchema.parse(
      z
        .array(bulkJobOfAnyoneSchema)
        .parse(dataOf(await t.get('/private/v1/bulk-jobs', admin.token)))
        .find((each) => each.id === job.id),
    );
    expect(ended.state).toBe('failed');
    expect(ended.error).toBe(
      'Stopped: the role of the account that started it may no longer update Asset',
    );
    expect(await lockedCount(prefix)).toBe(0);
  });

  it('stops between batches when its starter is disabled while it runs', async () => {
    const { admin, developer, prefix, job } = await developersLockJob();
    const running = worker();
    expect(await running.runOnce({ maxBatches: 1 })).toBe(true);
    expect(await lockedCount(prefix)).toBe(3);
    const disabled = await t.post(`/private/v1/users/${developer._id}/disable`, {}, admin.token);
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);

    // The claim's lease runs out (the worker holding it stopped); the next claim meets the refusal.
    t.advance(61_000);
    while (await worker().runOnce());

    const { rows } = await t.db.query<{ state: string; error: string }>(
      'SELECT state, error FROM bulk_jobs WHERE id = $1',
      [job.id],
    );
    expect(rows[0]).toEqual({ state: 'failed', error: 'Stopped: the account was disabled' });
    expect(await lockedCount(prefix)).toBe(3);
  });
});

describe("admins see every user's bulk jobs and stop any", () => {
  it("lists a developer's running job with its starter, and cancels it before its next batch", async () => {
    const { admin, developer, prefix, job } = await developersLockJob();
    const running = worker();
    await running.runOnce({ maxBatches: 1 });

    const listed = z
      .array(bulkJobOfAnyoneSchema)
      .parse(dataOf(await t.get('/private/v1/bulk-jobs', admin.token)));
    const shown = listed.find((each) => each.id === job.id);
    expect(shown).toMatchObject({
      state: 'running',
      userId: developer._id,
      userEmail: developer.email,
      done: 3,
    });
    // Queued and running jobs come before the ended ones.
    const firstEnded = listed.findIndex((each) => !['queued', 'running'].includes(each.state));
    expect(firstEnded === -1 || listed.indexOf(shown!) < firstEnded).toBe(true);

    const cancelled = bulkJobOfAnyoneSchema.parse(
      dataOf(await t.post(`/private/v1/bulk-jobs/${job.id}/cancel`, {}, admin.token)),
    );
    expect(cancelled).toMatchObject({ state: 'cancelled', cancelledBy: admin._id });

    t.advance(61_000);
    while (await worker().runOnce());
    expect(await lockedCount(prefix)).toBe(3);
    // Its starter reads who stopped it.
    expect(await readJob(job.id, developer.token)).toMatchObject({
      state: 'cancelled',
      cancelledBy: admin._id,
    });
  });

  it("keeps everyone's jobs from developers, and a starter's own cancel names them", async () => {
    const { developer, job } = await developersLockJob();
    expectError(await t.get('/private/v1/bulk-jobs', developer.token), 403);
    expectError(await t.post(`/private/v1/bulk-jobs/${job.id}/cancel`, {}, developer.token), 403);
    const own = bulkJobSchema.parse(
      dataOf(await t.post(`/v1/bulk-jobs/${job.id}/cancel`, {}, developer.token)),
    );
    expect(own).toMatchObject({ state: 'cancelled', cancelledBy: developer._id });
  });

  it('answers 404 for a job that does not exist', async () => {
    const { token } = await t.loginAs('admin');
    expectError(await t.post('/private/v1/bulk-jobs/nope/cancel', {}, token), 404);
  });
});
