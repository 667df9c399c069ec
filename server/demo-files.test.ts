import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_RULES } from '../core/files/rules';
import { validateFileContent } from '../core/files/validate';
import { PLACEHOLDER_COLUMNS, placeholdersSql, provideDemoFiles } from './demo-files';
import { validateGlb } from './model-validator';
import { seed } from './seed';
import { createLocalStorage, type Storage } from './storage';
import { createTestDb, type TestDb } from './test-db';

let testDb: TestDb;
let dir: string;
let storage: Storage;

beforeAll(async () => {
  testDb = await createTestDb();
  await seed(testDb.db, {
    adminEmail: 'admin@example.com',
    adminPassword: 'a-long-password',
    nodeEnv: 'test',
  });
  dir = await mkdtemp(join(tmpdir(), 'demo-files-'));
  storage = createLocalStorage(dir);
});

afterAll(async () => {
  await testDb?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const urls = async (sql: string) =>
  (await testDb.db.query<{ url: string }>(sql)).rows.map((row) => row.url);
const allUrls = async () => [
  ...(await urls('SELECT icon_url AS url FROM assets')),
  ...(await urls('SELECT model_url AS url FROM assets')),
  ...(await urls('SELECT model_url AS url FROM cage_meshes')),
  ...(await urls('SELECT model_url AS url FROM morphed_assets')),
];
const stored = async (url: string) => {
  const bytes = await storage.read(url.slice('/files/'.length));
  expect(bytes, url).toBeDefined();
  return bytes!;
};

describe('demo files', () => {
  it('gives every seeded placeholder a stored file, each distinct file once, and then nothing', async () => {
    const before = await allUrls();
    expect(before.every((url) => url.startsWith('/demo/'))).toBe(true);

    const count = await provideDemoFiles(testDb.db, storage);
    const after = await allUrls();
    expect(after.every((url) => /^\/files\/[^/]+$/.test(url))).toBe(true);
    expect(new Set(after).size).toBe(count);
    // Icons per colour word, models per type and colour: far fewer files than rows.
    expect(count).toBeGreaterThan(10);
    expect(count).toBeLessThan(before.length / 2);

    // A morphed asset's file is its own: the morph worker deletes it when it makes a new one.
    const morphed = await urls('SELECT model_url AS url FROM morphed_assets');
    const others = new Set(after.filter((_, i) => i < after.length - morphed.length));
    expect(new Set(morphed).size).toBe(morphed.length);
    expect(morphed.some((url) => others.has(url))).toBe(false);

    expect(await provideDemoFiles(testDb.db, storage)).toBe(0);
    expect(await allUrls()).toEqual(after);
  });

  it('stores icons that pass the icon rule and models that pass the glTF validator', async () => {
    for (const url of new Set(await urls('SELECT icon_url AS url FROM assets'))) {
      const file = new Blob([new Uint8Array(await stored(url))]);
      expect(await validateFileContent(file, UPLOAD_RULES.icon), url).toBeNull();
    }
    const models = new Set([
      ...(await urls('SELECT model_url AS url FROM assets')),
      ...(await urls('SELECT model_url AS url FROM cage_meshes')),
    ]);
    for (const url of models) {
      const report = await validateGlb(await stored(url), url);
      expect(report?.errors, url).toEqual([]);
      expect(report?.valid, url).toBe(true);
    }
  });

  it('finds the placeholders left through indexes of them alone, not by reading the tables', async () => {
    for (const { table, column, owned } of PLACEHOLDER_COLUMNS) {
      const plan = await testDb.db.transaction(async (tx) => {
        // The tables are small here: only an index whose predicate matches is a choice.
        await tx.exec('SET LOCAL enable_seqscan = off');
        const { rows } = await tx.query<Record<string, string>>(
          `EXPLAIN ${placeholdersSql(table, column, owned)}`,
        );
        return rows.map((row) => Object.values(row).join('')).join('\n');
      });
      expect(plan, `${table}.${column}`).toContain(`${table}_${column}_demo_idx`);
    }
  });
});
