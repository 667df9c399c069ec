/**
 * First-start data: the admin account and a deterministic demo catalogue of assets. Runs under
 * an advisory lock and records itself in app_meta, so later starts (and parallel starts on
 * PostgreSQL) reuse the data instead of seeding again.
 */
import type { Config } from './config';
import type { Db } from './db';
import { hashPassword } from './auth/password';
import { findUserByEmail, createUser } from './users';

const SEED_LOCK_KEY = 7_314_159_266;
const DEMO_SEED_KEY = 'demo_assets_seeded_at';

type Gender = 'male' | 'female' | 'unisex';

const CATALOGUE: { type: string; count: number; genders: Gender[]; names: string[] }[] = [
  {
    type: 'outfit',
    count: 40,
    genders: ['male', 'female', 'unisex'],
    names: ['Street', 'Office', 'Festival', 'Sport', 'Winter', 'Cyber'],
  },
  {
    type: 'top',
    count: 45,
    genders: ['male', 'female', 'unisex'],
    names: ['Hoodie', 'T-Shirt', 'Blazer', 'Crop Top', 'Sweater', 'Jacket'],
  },
  {
    type: 'bottom',
    count: 35,
    genders: ['male', 'female', 'unisex'],
    names: ['Jeans', 'Cargo Pants', 'Skirt', 'Shorts', 'Joggers'],
  },
  {
    type: 'footwear',
    count: 30,
    genders: ['male', 'female', 'unisex'],
    names: ['Sneakers', 'Boots', 'Loafers', 'Sandals', 'High-Tops'],
  },
  {
    type: 'hair',
    count: 40,
    genders: ['male', 'female', 'unisex'],
    names: ['Bob', 'Buzz Cut', 'Braids', 'Ponytail', 'Curls', 'Undercut'],
  },
  {
    type: 'beard',
    count: 20,
    genders: ['male'],
    names: ['Stubble', 'Goatee', 'Full Beard', 'Mustache'],
  },
  {
    type: 'glasses',
    count: 20,
    genders: ['unisex'],
    names: ['Aviators', 'Round Frames', 'Cat Eye', 'Visor'],
  },
  {
    type: 'headwear',
    count: 25,
    genders: ['male', 'female', 'unisex'],
    names: ['Beanie', 'Cap', 'Bucket Hat', 'Beret', 'Headband'],
  },
  { type: 'facewear', count: 15, genders: ['unisex'], names: ['Mask', 'Face Paint', 'Bandana'] },
  {
    type: 'body',
    count: 30,
    genders: ['male', 'female'],
    names: ['Slim', 'Athletic', 'Average', 'Broad'],
  },
];
const COLOURS = [
  'Black',
  'White',
  'Red',
  'Blue',
  'Olive',
  'Sand',
  'Neon',
  'Pastel',
  'Denim',
  'Gold',
];

/** Mulberry32: a tiny seeded PRNG so every fresh database gets the same demo catalogue. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DemoAsset {
  id: string;
  name: string;
  type: string;
  gender: Gender;
  iconUrl: string;
  modelUrl: string;
  locked: boolean;
  position: number;
  createdAt: Date;
}

/** The demo catalogue (300 assets), identical on every call. */
export function demoAssets(): DemoAsset[] {
  const random = prng(20240719);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const base = Date.UTC(2024, 0, 1);
  const assets: DemoAsset[] = [];
  for (const entry of CATALOGUE) {
    for (let position = 1; position <= entry.count; position += 1) {
      const id = Array.from({ length: 24 }, () => Math.floor(random() * 16).toString(16)).join('');
      const slug = `${entry.type}-${String(position).padStart(3, '0')}`;
      assets.push({
        id,
        name: `${pick(COLOURS)} ${pick(entry.names)}`,
        type: entry.type,
        gender: pick(entry.genders),
        iconUrl: `/demo/icons/${slug}.png`,
        modelUrl: `/demo/models/${slug}.glb`,
        locked: random() < 0.1,
        position,
        createdAt: new Date(base + Math.floor(random() * 180 * 24 * 3600) * 1000),
      });
    }
  }
  return assets;
}

export interface SeedResult {
  adminCreated: boolean;
  assetsSeeded: number;
}

/** Creates the admin (when its e-mail is free) and, once per database, the demo assets. */
export async function seed(
  db: Db,
  config: Pick<Config, 'adminEmail' | 'adminPassword'>,
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
    const done = await tx.query('SELECT 1 FROM app_meta WHERE key = $1', [DEMO_SEED_KEY]);
    if (done.rows.length > 0) return { adminCreated, assetsSeeded: 0 };
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
    await tx.query('INSERT INTO app_meta (key, value) VALUES ($1, $2)', [
      DEMO_SEED_KEY,
      now.toISOString(),
    ]);
    return { adminCreated, assetsSeeded: assets.length };
  });
}
