import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provideDemoFiles } from '../server/demo-files';
import { fileColumns } from '../server/file-sweeper';
import { keyOfFileUrl } from '../server/storage';
import { purgeExpiredTrash } from '../server/trash-purge';
import { createTestDb, type TestDb } from '../server/test-db';
import { testStorages, type TestStorage } from '../server/test-storage';
import { seedScale } from './seed-scale';

describe.each(testStorages())('seed:scale with files on %s', (_name, open) => {
  let testDb: TestDb;
  let files: TestStorage;

  beforeAll(async () => {
    testDb = await createTestDb();
    files = await open();
    await seedScale(testDb.db, { assets: 2_000, users: 200 }, undefined, files.storage);
  });

  afterAll(async () => {
    await testDb?.close();
    await files?.close();
  });

  /** Every file address any row holds, with the table and column holding it. */
  const addresses = async () => {
    const found: { at: string; url: string }[] = [];
    for (const { table, column } of await fileColumns(testDb.db)) {
      const { rows } = await testDb.db.query<{ url: string }>(
        `SELECT DISTINCT "${column}" AS url FROM "${table}" WHERE "${column}" IS NOT NULL`,
      );
      found.push(...rows.map(({ url }) => ({ at: `${table}.${column}`, url })));
    }
    return found;
  };

  it('leaves the first start nothing to store and no row to rewrite', async () => {
    const before = await addresses();
    expect(before.filter(({ url }) => url.startsWith('/demo/'))).toEqual([]);
    expect(await provideDemoFiles(testDb.db, files.storage)).toBe(0);
    expect(await addresses()).toEqual(before);
  });

  it("keeps its Trash through the first start's sweep of records past the default 30 days", async () => {
    const count = async () =>
      (await testDb.db.query<{ n: number }>('SELECT count(*)::int AS n FROM trash')).rows[0]!.n;
    expect(await count()).toBe(20);
    expect(await purgeExpiredTrash(testDb.db, new Date(), 30)).toBe(0);
    expect(await count()).toBe(20);
  });

  it('points every row at a stored, named file: a few shared ones, and its own for a morph', async () => {
    const found = await addresses();
    for (const { url } of found) {
      const key = keyOfFileUrl(url);
      expect(key && (await files.storage.stat(key)), url).toBeTruthy();
    }
    const { rows } = await testDb.db.query<{ named: number }>(
      'SELECT count(*)::int AS named FROM stored_files WHERE key = ANY($1::text[])',
      [found.map(({ url }) => keyOfFileUrl(url) ?? url)],
    );
    expect(rows[0]!.named).toBe(new Set(found.map(({ url }) => url)).size);

    // The morph worker deletes a morphed asset's file when it replaces it: no row shares one.
    const { rows: morphed } = await testDb.db.query<{ url: string }>(
      `SELECT model_url AS url FROM morphed_assets`,
    );
    const shared = new Set(
      found.filter(({ at }) => at !== 'morphed_assets.model_url').map(({ url }) => url),
    );
    expect(new Set(morphed.map(({ url }) => url)).size).toBe(morphed.length);
    expect(morphed.filter(({ url }) => shared.has(url))).toEqual([]);
    // Icons per colour, models per type and colour: a few hundred files for any size.
    expect(shared.size).toBeLessThan(300);
  });

  it('gives each asset the icon of its colour and the model of its type and colour', async () => {
    const { rows } = await testDb.db.query<{ name: string; icon: string; model: string }>(
      `SELECT a.name || ' (' || a.type || ')' AS name, i.original_name AS icon,
         m.original_name AS model
       FROM assets a
       JOIN stored_files i ON '/files/' || i.key = a.icon_url
       JOIN stored_files m ON '/files/' || m.key = a.model_url
       WHERE i.original_name <> lower(split_part(a.name, ' ', 1)) || '-icon.png'
         OR m.original_name <> lower(split_part(a.name, ' ', 1)) || '-' || a.type || '-model.glb'`,
    );
    expect(rows).toEqual([]);
    const { rows: counted } = await testDb.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM assets a
       JOIN stored_files i ON '/files/' || i.key = a.icon_url
       JOIN stored_files m ON '/files/' || m.key = a.model_url`,
    );
    expect(counted[0]!.n).toBeGreaterThan(2_000);
  });
});
