/**
 * The morph queue takes turns between the users who queued: however many entries one user
 * queues, another user's entry is taken after at most one of theirs.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { morphGenerateResultSchema } from '../contract/schemas';
import { newId } from './ids';
import { startMorphWorker } from './morph-worker';
import { fileUrl } from './storage';
import { dataOf, useTestApp } from './test-app';

const t = useTestApp();
const users = { admin: '', developer: '' };
const userIds = { developer: '' };
let source = '';
const bodies: string[] = [];

/** An asset whose model is not stored: its morph fails at once, so a claim costs no model work. */
async function createAsset(type: string): Promise<string> {
  const id = newId();
  await t.db.query(
    `INSERT INTO assets (id, name, type, gender, model_url, position, created_at, updated_at)
     SELECT $1, $1, $2, 'female', $3, COALESCE(max(position), 0) + 1, $4, $4 FROM assets`,
    [id, type, fileUrl(`${'b'.repeat(24)}.glb`), t.clock.current],
  );
  return id;
}

async function generate(token: string, count: number): Promise<string[]> {
  const body = { sourceAssetId: source, bodyAssetIds: bodies.slice(0, count) };
  const answer = await t.post('/v1/morphed-assets/generate', body, token);
  return morphGenerateResultSchema.parse(dataOf(answer)).map((entry) => entry.id);
}

/** Runs the worker one claim at a time; answers the entries in the order they were taken. */
async function takenInOrder(claims: number): Promise<string[]> {
  const worker = startMorphWorker(
    { db: t.db, storage: t.storage, now: () => new Date(t.clock.current) },
    { concurrency: 0, deliver: () => Promise.resolve() },
  );
  const taken = async () =>
    (await t.db.query<{ id: string }>("SELECT id FROM morph_queue WHERE status <> 'queued'")).rows;
  const before = new Set((await taken()).map((row) => row.id));
  const order: string[] = [];
  for (let i = 0; i < claims && (await worker.runOnce()); i += 1) {
    const now = (await taken()).filter((row) => !before.has(row.id) && !order.includes(row.id));
    expect(now).toHaveLength(1);
    order.push(now[0]!.id);
  }
  await worker.stop();
  return order;
}

beforeAll(async () => {
  users.admin = (await t.loginAs('admin')).token;
  ({ token: users.developer, _id: userIds.developer } = await t.loginAs('developer'));
  source = await createAsset('outfit');
  for (let i = 0; i < 20; i += 1) bodies.push(await createAsset('body'));
});

beforeEach(async () => {
  await t.db.query('DELETE FROM morph_queue');
});

describe('the morph queue between users', () => {
  it("takes another user's entry before a second one of a user who queued twenty first", async () => {
    const many = await generate(users.developer, 20);
    t.advance(1000);
    const [one] = await generate(users.admin, 1);
    const order = await takenInOrder(2);
    expect(order).toContain(one);
    expect(many).toContain(order.find((id) => id !== one));
  });

  it('a user who queued many, was served and queues again still waits their turn', async () => {
    const first = await generate(users.developer, 19);
    t.advance(1000);
    expect(first).toContain((await takenInOrder(1))[0]);
    // One of theirs ended: the developer fills the place at once, then the admin queues two.
    await generate(users.developer, 1);
    t.advance(1000);
    const admins = await generate(users.admin, 2);
    const order = await takenInOrder(4);
    expect(order.map((id) => admins.includes(id))).toEqual([true, false, true, false]);
  });

  it('takes every entry in the end: handed back, re-queued, and those of a user deleted since', async () => {
    const developers = await generate(users.developer, 3);
    t.advance(1000);
    const admins = await generate(users.admin, 2);
    // A stopped server's claim is given back; the developer's account goes, their entries stay.
    const handedBack = (await takenInOrder(1))[0]!;
    await t.db.query("UPDATE morph_queue SET status = 'queued' WHERE id = $1", [handedBack]);
    await t.db.query('DELETE FROM users WHERE id = $1', [userIds.developer]);
    const order = await takenInOrder(10);
    expect(order.toSorted()).toEqual([...developers, ...admins].toSorted());
  });
});
