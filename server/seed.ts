/**
 * First-start data: the admin account, a deterministic demo catalogue of assets and, around it,
 * tags, applications, cage meshes, morphs and user assignments plus a demo user. Runs under an
 * advisory lock and records each part in app_meta, so later starts (and parallel starts on
 * PostgreSQL) reuse the data instead of seeding again.
 */
import type { Config } from './config';
import type { Db } from './db';
import { hashPassword } from './auth/password';
import { findUserByEmail, createUser } from './users';
import { seedCatalogue } from './seed-catalogue';
import { demoAssets } from './seed-data';

export { DEMO_USER, demoAssets } from './seed-data';

const SEED_LOCK_KEY = 7_314_159_266;
const DEMO_SEED_KEY = 'demo_assets_seeded_at';
const CATALOGUE_SEED_KEY = 'demo_catalogue_seeded_at';

export interface SeedResult {
  adminCreated: boolean;
  assetsSeeded: number;
  catalogueSeeded: boolean;
}

/** Creates the admin (when its e-mail is free) and, once per database, the demo assets. */
export async function seed(
  db: Db,
  config: Pick<Config, 'adminEmail' | 'adminPassword' | 'nodeEnv'>,
  now = new Date(),
): Promise<SeedResult> {
  const passwordHash = await hashPassword(config.adminPassword);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    let adminCreated = false;
    if (!(await findUserByEmail(tx, config.adminEmail))) {
      await createUser(tx, {
        email: config.adminEmail,
        passwordHash,
        role: 'admin',
        verifiedAt: now,
        now,
      });
      adminCreated = true;
    }
    const assetsSeeded = (await isDone(tx, DEMO_SEED_KEY)) ? 0 : await seedAssets(tx, now);
    // Its own marker, so databases seeded before the catalogue existed get it once too.
    const catalogueSeeded = !(await isDone(tx, CATALOGUE_SEED_KEY));
    // The demo user's password is published in the README: never in production. The history
    // stays out of the tests, which count the events they cause.
    if (catalogueSeeded) {
      await seedCatalogue(tx, now, {
        withDemoUser: config.nodeEnv !== 'production',
        history: config.nodeEnv !== 'test',
      });
      await markDone(tx, CATALOGUE_SEED_KEY, now);
    }
    return { adminCreated, assetsSeeded, catalogueSeeded };
  });
}

async function isDone(tx: Db, key: string): Promise<boolean> {
  return (await tx.query('SELECT 1 FROM app_meta WHERE key = $1', [key])).rows.length > 0;
}

async function markDone(tx: Db, key: string, now: Date): Promise<void> {
  await tx.query('INSERT INTO app_meta (key, value) VALUES ($1, $2)', [key, now.toISOString()]);
}

async function seedAssets(tx: Db, now: Date): Promise<number> {
  const assets = demoAssets();
  // One statement for the whole catalogue: unnest() turns parallel arrays into rows.
  await tx.query(
    `INSERT INTO assets (id, name, type, gender, icon_url, model_url, locked, position, created_at, updated_at)
       SELECT id, name, type, gender, icon_url, model_url, locked::boolean, position::int, created_at::timestamptz, created_at::timestamptz
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
         AS t(id, name, type, gender, icon_url, model_url, locked, position, created_at)`,
    [
      assets.map((a) => a.id),
      assets.map((a) => a.name),
      assets.map((a) => a.type),
      assets.map((a) => a.gender),
      assets.map((a) => a.iconUrl),
      assets.map((a) => a.modelUrl),
      assets.map((a) => String(a.locked)),
      assets.map((a) => String(a.position)),
      assets.map((a) => a.createdAt.toISOString()),
    ],
  );
  await markDone(tx, DEMO_SEED_KEY, now);
  return assets.length;
}
