import { beforeAll, describe, expect, it } from 'vitest';
import { assetListSpec, findAssets } from './asset-store';
import { parseListQuery, runList } from './list';
import { dataOf, useTestApp } from './test-app';
import { pageStatements, recordingDb, scansOf, type Statement } from './test-plans';

const t = useTestApp();
let token = '';

interface Row {
  id: string;
  position: number;
}

/** The 1-based place of each row of `table`'s collection of `where`, in its order. */
async function places(table: 'assets' | 'application_assets', where = 'true') {
  const { rows } = await t.db.query<{ id: string }>(
    `SELECT id FROM ${table} WHERE ${where} ORDER BY position, rank, id`,
  );
  return new Map(rows.map((row, i) => [row.id, i + 1]));
}

async function list(path: string): Promise<Row[]> {
  return dataOf(await t.get(path, token)) as Row[];
}

/** Every page of `path` (with `limit`), the rows' ids and the places they show. */
async function allPages(path: string, limit: number): Promise<Map<string, number>> {
  const shown = new Map<string, number>();
  for (let page = 1; ; page += 1) {
    const rows = await list(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}&page=${page}`);
    for (const row of rows) shown.set(row.id, row.position);
    if (rows.length < limit) return shown;
  }
}

beforeAll(async () => {
  token = (await t.loginAs('admin')).token;
  // Several blocks of order_blocks (1,024 positions each, one of them below zero), and rows
  // piled on one position in rank order, as moves into one gap leave them.
  await t.db.exec(`
    UPDATE assets SET position = position * 20 - 1500;
    UPDATE assets SET position = 2100, rank = 'a' || right(id, 1)
      WHERE id IN (SELECT id FROM assets ORDER BY id LIMIT 12);
    UPDATE application_assets SET position = position * 40 - 300;
  `);
});

describe('the places a page of a list shows', () => {
  it('are each asset’s place in the catalogue, in every sort, filter and page size', async () => {
    const expected = await places('assets');
    expect(new Set(expected.values()).size).toBe(300);
    for (const order of ['position', '-position', 'name', '-type', 'createdAt']) {
      expect(await allPages(`/v1/assets?order=${order}`, 100)).toEqual(expected);
    }
    for (const page of [1, 20, 43]) {
      const rows = await list(`/v1/assets?order=-name&limit=7&page=${page}`);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.position).toBe(expected.get(row.id));
    }
    const { rows: tagged } = await t.db.query<{ tag_id: string }>(
      'SELECT tag_id FROM asset_tags GROUP BY tag_id ORDER BY count(*) DESC LIMIT 1',
    );
    const byTag = await allPages(`/v1/assets?tagId=${tagged[0]!.tag_id}&order=name`, 10);
    expect(byTag.size).toBeGreaterThan(1);
    for (const [id, position] of byTag) expect(position).toBe(expected.get(id));
    const beards = await allPages('/v1/assets?type=beard&order=-position', 10);
    expect(beards.size).toBeGreaterThan(1);
    for (const [id, position] of beards) expect(position).toBe(expected.get(id));
  });

  it('are each entry’s place in its application, and an asset’s in each of its applications', async () => {
    const { rows: applications } = await t.db.query<{ id: string }>(
      'SELECT id FROM applications ORDER BY name',
    );
    expect(applications.length).toBeGreaterThan(1);
    for (const { id } of applications) {
      const expected = await places('application_assets', `application_id = '${id}'`);
      for (const order of ['position', '-name']) {
        expect(
          await allPages(`/v1/application-assets?applicationId=${id}&order=${order}`, 7),
        ).toEqual(expected);
      }
    }
    const { rows: placed } = await t.db.query<{ asset_id: string }>(
      'SELECT asset_id FROM application_assets GROUP BY asset_id ORDER BY count(*) DESC LIMIT 1',
    );
    const assetId = placed[0]!.asset_id;
    const entries = await list(`/v1/assets/${assetId}/application?order=position`);
    expect(entries.length).toBeGreaterThan(1);
    for (const entry of entries as (Row & { applicationId: string })[]) {
      const expected = await places(
        'application_assets',
        `application_id = '${entry.applicationId}'`,
      );
      expect(entry.position).toBe(expected.get(entry.id));
    }
  });

  it('are the assets’ catalogue places in a user’s assets', async () => {
    const user = await t.signUp();
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM assets ORDER BY name DESC LIMIT 30',
    );
    const assetIds = rows.map((row) => row.id);
    dataOf(await t.post(`/private/v1/user-assets/${user._id}`, { assetIds }, token));
    const expected = await places('assets');
    const shown = await allPages(`/v1/user-assets/${user._id}?order=name`, 7);
    expect([...shown.keys()].sort()).toEqual([...assetIds].sort());
    for (const [id, position] of shown) expect(position).toBe(expected.get(id));
  });
});

/**
 * The rows the scans of `statement`'s plan return, summed over their loops, by table and alias:
 * `order_blocks`, and `assets p` for the rows a place counts (placeSql's and pagePlaces' alias; a
 * page's own ids and rows are read under others).
 */
async function rowsRead(statement: Statement): Promise<Map<string, number>> {
  const read = new Map<string, number>();
  for (const scan of await scansOf(t.db, statement)) {
    const key = scan.table === 'order_blocks' ? scan.table : `${scan.table} ${scan.alias}`;
    read.set(key, (read.get(key) ?? 0) + scan.returned);
  }
  return read;
}

describe('the cost of a page’s places', () => {
  it('reads each block count and each row of the catalogue at most once for a page', async () => {
    const { db, statements } = recordingDb(t.db);
    for (const order of ['name', '-position']) {
      statements.length = 0;
      const query = parseListQuery(assetListSpec, { order: [order], limit: ['100'] });
      const { data } = await runList(db, assetListSpec, query);
      expect(data).toHaveLength(100);
      const page = pageStatements(statements);
      expect(page).toHaveLength(1);
      const read = await rowsRead(page[0]!);
      const { rows: counts } = await t.db.query<{ blocks: number; assets: number }>(
        `SELECT (SELECT count(*)::int FROM order_blocks WHERE collection = 'assets') AS blocks,
                (SELECT count(*)::int FROM assets) AS assets`,
      );
      const { blocks, assets } = counts[0]!;
      // Each block count and each row of the catalogue at most once: counted row by row, a page
      // of 100 reads the blocks before each row and the rows before it in its block.
      expect(read.get('order_blocks') ?? 0).toBeLessThanOrEqual(blocks);
      expect(read.get('assets p') ?? 0).toBeLessThanOrEqual(assets);
    }
  });

  it('reads each block count at most once for the assets of a batch, with their places', async () => {
    const expected = await places('assets');
    const ids = [...expected.keys()].filter((_, i) => i % 3 === 0);
    const { db, statements } = recordingDb(t.db);
    const found = await findAssets(db, ids);
    expect(found.map((asset) => asset.id)).toEqual([...ids].sort());
    for (const asset of found) expect(asset.position).toBe(expected.get(asset.id));
    const { rows: counts } = await t.db.query<{ blocks: number }>(
      "SELECT count(*)::int AS blocks FROM order_blocks WHERE collection = 'assets'",
    );
    expect((await rowsRead(statements[0]!)).get('order_blocks') ?? 0).toBeLessThanOrEqual(
      counts[0]!.blocks,
    );
  });
});
