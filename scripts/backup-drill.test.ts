/**
 * The restore drill on a small installation (PostgreSQL when the tests have one, else PGlite):
 * it backs up, restores into a fresh database and folder, starts a server there and finds
 * every table's rows and every stored file's checksum as they were.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDb, type Db } from '../server/db';
import { migrate } from '../server/migrate';
import { seed } from '../server/seed';
import { createLocalStorage } from '../server/storage';
import { recordStoredFile } from '../server/stored-files';
import { testConfig } from '../server/test-app';
import { createTestDb, type TestDb } from '../server/test-db';
import { readPng } from '../server/test-files';
import { backupDrill } from './backup-drill';

const SECRET = 'a-secret-of-the-installation-0123456789';
let dataDir = '';
let testDb: TestDb | undefined;

afterAll(async () => {
  await testDb?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('npm run drill -- backup', () => {
  it('restores every row and every stored file of an installation, and a server starts on it', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'avatar-studio-drill-'));
    let db: Db;
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      JWT_SECRET: SECRET,
      LOG_LEVEL: 'warn',
    };
    if (process.env.TEST_DATABASE_URL) {
      testDb = await createTestDb();
      db = testDb.db;
      env.DATABASE_URL = testDb.url!;
    } else {
      db = await createPgliteDb(join(dataDir, 'pg'));
      await migrate(db);
    }
    const now = new Date();
    await seed(db, testConfig(), now);
    const storage = createLocalStorage(join(dataDir, 'files'));
    const png = readPng();
    const stored = await storage.put(new Blob([png]).stream(), { maxBytes: 1 << 20 });
    await recordStoredFile(db, stored, 'icon.png', null, now);
    // PGlite's folder is copied with its server stopped.
    if (!testDb) await db.close();

    const lines: string[] = [];
    const report = await backupDrill(env, { say: (line) => lines.push(line) });
    expect(report.ok, lines.join('\n')).toBe(true);
    const rows = new Map(report.tables.map((row) => [row.table, row]));
    expect(rows.get('stored_files')).toMatchObject({ backedUp: 1, restored: 1 });
    expect(rows.get('assets')!.restored).toBeGreaterThan(0);
    expect(report.files).toBeGreaterThanOrEqual(1);
    expect(report.badFiles).toEqual([]);
    expect(report.servedChecked).toBe(report.referenced - report.missingAtSource.length);
    expect(report.servedChecked).toBeGreaterThanOrEqual(1);
    expect(report.ready).toBe(200);
    expect(lines.at(-1)).toBe('Restore drill: OK');
  }, 180_000);
});
