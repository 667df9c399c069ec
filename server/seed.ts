/**
 * First-start data: the admin account, a deterministic demo catalogue of assets and, around it,
 * tags, applications, cage meshes, morphs and user assignments plus a demo user. Runs under an
 * advisory lock and records each part in app_meta, so later starts (and parallel starts on
 * PostgreSQL) reuse the data instead of seeding again.
 */
import type { Config } from './config';
import type { Db } from './db';
import { hashPassword } from './auth/password';
import { newId as newEventId } from './ids';
import { findUserByEmail, createUser } from './users';

const SEED_LOCK_KEY = 7_314_159_266;
const DEMO_SEED_KEY = 'demo_assets_seeded_at';
const CATALOGUE_SEED_KEY = 'demo_catalogue_seeded_at';

/** The demo account created with the demo catalogue (role user, verified). */
export const DEMO_USER = { email: 'demo@avatar.studio', password: 'avatar-studio-demo' };

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
/** The colour words of the demo names, with the sRGB colour their demo files are drawn in. */
export const DEMO_COLOURS: Record<string, [number, number, number]> = {
  Black: [40, 40, 46],
  White: [235, 235, 235],
  Red: [200, 48, 48],
  Blue: [46, 94, 200],
  Olive: [110, 120, 50],
  Sand: [214, 190, 140],
  Neon: [60, 230, 120],
  Pastel: [240, 170, 200],
  Denim: [70, 100, 150],
  Gold: [212, 170, 50],
};
const COLOURS = Object.keys(DEMO_COLOURS);

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

/** A 24-hex-digit id drawn from `random`, so seeded ids are the same on every database. */
function hexId(random: () => number): string {
  return Array.from({ length: 24 }, () => Math.floor(random() * 16).toString(16)).join('');
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
    for (let index = 1; index <= entry.count; index += 1) {
      const id = hexId(random);
      const slug = `${entry.type}-${String(index).padStart(3, '0')}`;
      assets.push({
        id,
        name: `${pick(COLOURS)} ${pick(entry.names)}`,
        type: entry.type,
        gender: pick(entry.genders),
        iconUrl: `/demo/icons/${slug}.png`,
        modelUrl: `/demo/models/${slug}.glb`,
        locked: random() < 0.1,
        // One global order 1..N (order updates move assets within it).
        position: assets.length + 1,
        createdAt: new Date(base + Math.floor(random() * 180 * 24 * 3600) * 1000),
      });
    }
  }
  return assets;
}

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

/**
 * Inserts rows in one statement: each column travels as a text[] parameter, unnest() turns
 * them into rows and `casts` restore the column types ('' stands for NULL).
 */
async function insertRows(
  tx: Db,
  table: string,
  columns: Record<string, string>,
  rows: Record<string, string>[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(columns);
  const selects = names.map((name) => `NULLIF(${name}, '')::${columns[name]}`);
  await tx.query(
    `INSERT INTO ${table} (${names.join(', ')})
     SELECT ${selects.join(', ')}
     FROM unnest(${names.map((_, i) => `$${i + 1}::text[]`).join(', ')}) AS t(${names.join(', ')})`,
    names.map((name) => rows.map((row) => row[name] ?? '')),
  );
}

const TAG_NAMES = [
  'Casual',
  'Formal',
  'Sport',
  'Vintage',
  'Streetwear',
  'Fantasy',
  'Sci-Fi',
  'Summer',
  'Winter',
  'Premium',
  'Starter',
  'Seasonal',
];
const APPLICATION_NAMES = [
  'Avatar Hub',
  'Metaverse Plaza',
  'Fitness Quest',
  'Fashion Week',
  'Pixel Arena',
  'Studio Preview',
];
const BODY_TYPES = ['Slim', 'Athletic', 'Average', 'Broad'];
/** How many morph queue entries of each status the demo has (40 in all). */
const QUEUE_STATUSES = { completed: 16, processing: 8, queued: 10, failed: 6 } as const;
const MORPHED_ASSETS = 20;

/**
 * Tags, applications, cage meshes, morphs, a demo user and user assignments, built from the
 * assets present (so it also fits a database whose assets were seeded earlier); with `history`,
 * the events of their making too (see seedHistory).
 */
async function seedCatalogue(
  tx: Db,
  now: Date,
  { withDemoUser, history }: { withDemoUser: boolean; history: boolean },
): Promise<void> {
  const random = prng(20240720);
  const newId = () => hexId(random);
  const base = Date.UTC(2024, 6, 1);
  const at = (days: number) => new Date(base + Math.floor(days * 24 * 3600) * 1000).toISOString();
  const shuffled = <T>(items: readonly T[]): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  };
  const { rows: assets } = await tx.query<{ id: string; name: string; type: string }>(
    'SELECT id, name, type FROM assets ORDER BY position, id',
  );
  const ids = assets.map((asset) => asset.id);

  const tags = TAG_NAMES.map((name, i) => ({ id: newId(), name, created_at: at(i) }));
  await insertRows(
    tx,
    'tags',
    { id: 'text', name: 'text', created_at: 'timestamptz', updated_at: 'timestamptz' },
    tags.map((tag) => ({ ...tag, updated_at: tag.created_at })),
  );
  // About half the assets carry one tag, a fifth a second one.
  const assetTags = assets.flatMap((asset) =>
    shuffled(tags)
      .slice(0, random() < 0.5 ? (random() < 0.4 ? 2 : 1) : 0)
      .map((tag) => ({ asset_id: asset.id, tag_id: tag.id, created_at: at(30) })),
  );
  await insertRows(
    tx,
    'asset_tags',
    { asset_id: 'text', tag_id: 'text', created_at: 'timestamptz' },
    assetTags,
  );

  const applications = APPLICATION_NAMES.map((name, i) => ({
    id: newId(),
    name,
    created_at: at(10 + i),
    updated_at: at(40 + i),
  }));
  await insertRows(
    tx,
    'applications',
    { id: 'text', name: 'text', created_at: 'timestamptz', updated_at: 'timestamptz' },
    applications,
  );
  const applicationAssets = applications.flatMap((application) =>
    shuffled(ids)
      .slice(0, 20 + Math.floor(random() * 41))
      .map((assetId, i) => ({
        id: newId(),
        application_id: application.id,
        asset_id: assetId,
        position: String(i + 1),
        synced_at: random() < 0.7 ? at(50 + random() * 30) : '',
        created_at: at(20 + random() * 30),
      })),
  );
  await insertRows(
    tx,
    'application_assets',
    {
      id: 'text',
      application_id: 'text',
      asset_id: 'text',
      position: 'int',
      synced_at: 'timestamptz',
      created_at: 'timestamptz',
    },
    applicationAssets,
  );

  const cageMeshes = (['male', 'female'] as const).flatMap((gender) =>
    BODY_TYPES.map((bodyType) => {
      const created = at(random() * 60);
      return {
        id: newId(),
        name: `${bodyType} ${gender === 'male' ? 'Male' : 'Female'}`,
        gender,
        body_type: bodyType.toLowerCase(),
        model_url: `/demo/cage-meshes/${gender}-${bodyType.toLowerCase()}.glb`,
        created_at: created,
        updated_at: created,
      };
    }),
  );
  await insertRows(
    tx,
    'cage_meshes',
    {
      id: 'text',
      name: 'text',
      gender: 'text',
      body_type: 'text',
      model_url: 'text',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
    cageMeshes,
  );

  // Morphs fit clothing-like assets onto body assets; each (source, body) pair once.
  const bodies = assets.filter((asset) => asset.type === 'body');
  const sources = shuffled(assets.filter((asset) => asset.type !== 'body'));
  const entryCount = Object.values(QUEUE_STATUSES).reduce((sum, n) => sum + n, 0);
  const pairs =
    bodies.length === 0
      ? []
      : sources
          .slice(0, entryCount)
          .map((source, i) => ({ source, body: bodies[i % bodies.length]! }));
  const morphed = pairs.slice(0, MORPHED_ASSETS).map(({ source, body }, i) => ({
    id: newId(),
    source_asset_id: source.id,
    body_asset_id: body.id,
    name: `${source.name} on ${body.name}`,
    model_url: `/demo/morphed/${String(i + 1).padStart(3, '0')}.glb`,
    created_at: at(90 + i),
  }));
  await insertRows(
    tx,
    'morphed_assets',
    {
      id: 'text',
      source_asset_id: 'text',
      body_asset_id: 'text',
      name: 'text',
      model_url: 'text',
      created_at: 'timestamptz',
    },
    morphed,
  );
  const statuses = Object.entries(QUEUE_STATUSES).flatMap(([status, n]) =>
    Array.from({ length: n }, () => status),
  );
  const queue = pairs.map(({ source, body }, i) => {
    const status = statuses[i]!;
    const created = 80 + i + random();
    return {
      id: newId(),
      source_asset_id: source.id,
      body_asset_id: body.id,
      status,
      progress: String(
        status === 'completed' ? 100 : status === 'queued' ? 0 : 1 + Math.floor(random() * 98),
      ),
      error: status === 'failed' ? 'Mesh fitting failed: the source does not cover the body' : '',
      morphed_asset_id: status === 'completed' ? (morphed[i]?.id ?? '') : '',
      created_at: at(created),
      updated_at: at(created + (status === 'queued' ? 0 : random() * 2)),
    };
  });
  await insertRows(
    tx,
    'morph_queue',
    {
      id: 'text',
      source_asset_id: 'text',
      body_asset_id: 'text',
      status: 'text',
      progress: 'int',
      error: 'text',
      morphed_asset_id: 'text',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
    queue,
  );

  if (withDemoUser && !(await findUserByEmail(tx, DEMO_USER.email))) {
    await createUser(tx, {
      email: DEMO_USER.email,
      passwordHash: await hashPassword(DEMO_USER.password),
      role: 'user',
      verifiedAt: now,
      now,
    });
  }
  const { rows: users } = await tx.query<{ id: string; email: string }>(
    `SELECT id, email FROM users WHERE role = 'admin' OR lower(email) = $1 ORDER BY created_at, id`,
    [DEMO_USER.email],
  );
  const userAssets = users.flatMap((user) =>
    shuffled(ids)
      .slice(0, user.email === DEMO_USER.email ? 8 : 12)
      .map((assetId, i) => ({ user_id: user.id, asset_id: assetId, created_at: at(100 + i) })),
  );
  await insertRows(
    tx,
    'user_assets',
    { user_id: 'text', asset_id: 'text', created_at: 'timestamptz' },
    userAssets,
  );
  await tx.query(
    `UPDATE users SET assets = ARRAY(SELECT asset_id FROM user_assets x
       WHERE x.user_id = users.id ORDER BY created_at, asset_id)
     WHERE id = ANY($1::text[])`,
    [users.map((user) => user.id)],
  );
  if (history) {
    await seedHistory(tx, users[0]?.id ?? null, {
      assets,
      tags,
      applications,
      applicationAssets,
      cageMeshes,
      queue,
      userAssets,
    });
  }
  await markDone(tx, CATALOGUE_SEED_KEY, now);
}

type Row = Record<string, string>;

/**
 * The events of the demo catalogue's making, as the admin (`actorId`, the first one) would
 * have recorded them through the API, at each record's creation time: so a fresh install's
 * activity log, changelogs and user pages show a history instead of nothing. Each event's data
 * is the part of the API's that the demo records have (an asset's id, name and type, not the
 * whole asset). Nothing is streamed: these are all older than any client.
 */
async function seedHistory(
  tx: Db,
  actorId: string | null,
  made: {
    assets: { id: string; name: string; type: string }[];
    tags: Row[];
    applications: Row[];
    applicationAssets: Row[];
    cageMeshes: Row[];
    queue: Row[];
    userAssets: Row[];
  },
): Promise<void> {
  const { rows: created } = await tx.query<{ id: string; created_at: Date }>(
    'SELECT id, created_at FROM assets WHERE id = ANY($1::text[])',
    [made.assets.map((asset) => asset.id)],
  );
  const createdAt = new Map(created.map((row) => [row.id, row.created_at.toISOString()]));
  const event = (subject: Row, routingKey: string, data: unknown, at: string): Row => ({
    ...subject,
    id: newEventId(),
    routing_key: routingKey,
    actor_id: actorId ?? '',
    data: JSON.stringify(data),
    created_at: at,
  });
  const events: Row[] = [
    ...made.assets.map((asset) =>
      event({ asset_id: asset.id }, 'asset.created.v1', { asset }, createdAt.get(asset.id)!),
    ),
    ...made.tags.map((tag) =>
      event({ tag_id: tag.id! }, 'tag.created.v1', { name: tag.name }, tag.created_at!),
    ),
    ...made.applications.map((application) =>
      event(
        { application_id: application.id! },
        'application.created.v1',
        { name: application.name },
        application.created_at!,
      ),
    ),
    ...made.applicationAssets.map((entry) =>
      event(
        { asset_id: entry.asset_id! },
        'asset.added-to-application.v1',
        {
          applicationId: entry.application_id,
          applicationAssetId: entry.id,
          position: Number(entry.position),
        },
        entry.created_at!,
      ),
    ),
    ...made.cageMeshes.map(({ id, name, gender, body_type, created_at }) =>
      event(
        { cage_mesh_id: id! },
        'asset.cage-mesh-updated.v1',
        { created: true, cageMesh: { id, name, gender, bodyType: body_type } },
        created_at!,
      ),
    ),
    ...made.queue.map((entry) =>
      event(
        { asset_id: entry.source_asset_id! },
        'asset.morph-queue-entry-created.v1',
        { queueEntryId: entry.id, bodyAssetId: entry.body_asset_id },
        entry.created_at!,
      ),
    ),
    ...made.userAssets.map((entry) =>
      event(
        { asset_id: entry.asset_id! },
        'asset.user-assets-added.v1',
        { userId: entry.user_id },
        entry.created_at!,
      ),
    ),
  ].sort((a, b) => a.created_at!.localeCompare(b.created_at!));
  await insertRows(
    tx,
    'asset_events',
    {
      id: 'text',
      asset_id: 'text',
      tag_id: 'text',
      application_id: 'text',
      cage_mesh_id: 'text',
      routing_key: 'text',
      actor_id: 'text',
      data: 'jsonb',
      created_at: 'timestamptz',
    },
    events,
  );
}
