/**
 * The morph queue list (GET /v1/morphed-asset-queue) counts and pages its entries from the
 * queue alone, naming the source and body assets of the page's rows only. Its pages must be
 * the ones the queue joined with its assets gives, in every sort and filter.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { listResponseSchema, morphQueueEntrySchema } from '../contract/schemas';
import type { SqlParam } from './db';
import { useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);
const queuePage = listResponseSchema(morphQueueEntrySchema);

beforeAll(async () => {
  // Ties in every sort: entries made at the same instants, broken by their ids.
  await t.db.exec(`UPDATE morph_queue SET created_at = date_trunc('day', created_at),
    updated_at = date_trunc('day', updated_at)`);
});

/** The entries for `query`, page by page, as the API answers them. */
async function listed(query: string, limit = 7) {
  const entries = [];
  for (let page = 1; ; page += 1) {
    const response = await t.get(
      `/v1/morphed-asset-queue?${query}&limit=${limit}&page=${page}`,
      tokens.developer,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { data, pagination } = queuePage.parse(response.body);
    entries.push(...data);
    if (!pagination.hasNextPage) {
      expect(pagination.totalDocs).toBe(entries.length);
      return entries;
    }
  }
}

/** The entries' ids and names read from the queue joined with its assets. */
async function expected(order: string, where = 'true', params: SqlParam[] = []) {
  const { rows } = await t.db.query<{ id: string; source: string; body: string }>(
    `SELECT q.id, a.name AS source, b.name AS body FROM morph_queue q
     JOIN assets a ON a.id = q.source_asset_id JOIN assets b ON b.id = q.body_asset_id
     WHERE ${where} ORDER BY ${order}`,
    params,
  );
  return rows;
}

const shown = (entries: { id: string; sourceAssetName: string; bodyAssetName: string }[]) =>
  entries.map((entry) => ({
    id: entry.id,
    source: entry.sourceAssetName,
    body: entry.bodyAssetName,
  }));

describe('the morph queue list', () => {
  it('pages every sort as the queue and its assets give it', async () => {
    const all = await listed('');
    expect(all.length).toBeGreaterThan(20);
    expect(shown(all)).toEqual(await expected('q.created_at DESC, q.id DESC'));
    for (const [field, column] of [
      ['createdAt', 'created_at'],
      ['updatedAt', 'updated_at'],
      ['status', 'status'],
    ]) {
      expect(shown(await listed(`order=${field}`))).toEqual(await expected(`q.${column}, q.id`));
      expect(shown(await listed(`order=-${field}`, 5))).toEqual(
        await expected(`q.${column} DESC, q.id DESC`),
      );
    }
  });

  it('filters by status and by the source asset name as the queue gives them', async () => {
    expect(shown(await listed('status=failed&order=updatedAt', 3))).toEqual(
      await expected('q.updated_at, q.id', "q.status = 'failed'"),
    );
    expect(shown(await listed('status=failed&status=queued&order=-status'))).toEqual(
      await expected('q.status DESC, q.id DESC', "q.status IN ('failed', 'queued')"),
    );
    const { rows } = await t.db.query<{ name: string }>(
      `SELECT a.name FROM morph_queue q JOIN assets a ON a.id = q.source_asset_id
       ORDER BY q.id LIMIT 1`,
    );
    const word = rows[0]!.name.split(' ')[0]!.toUpperCase();
    const searched = await listed(`search=${encodeURIComponent(word)}&status=completed`, 2);
    expect(searched.length).toBeGreaterThan(0);
    expect(shown(searched)).toEqual(
      await expected('q.created_at DESC, q.id DESC', "a.name ILIKE $1 AND q.status = 'completed'", [
        `%${word}%`,
      ]),
    );
    // The body's name is not searched.
    expect(await listed('search=no%20such%20asset%20name')).toEqual([]);
  });
});
