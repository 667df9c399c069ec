/**
 * The demo catalogue around the seeded assets (server/seed.ts): tags, applications, cage
 * meshes, morphs, the demo user and user assignments, and the events of their making.
 */
import type { Db } from './db';
import { hashPassword } from './auth/password';
import { newId as newEventId } from './ids';
import { findUserByEmail, createUser } from './users';
import { DEMO_USER, hexId, prng } from './seed-data';

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
export async function seedCatalogue(
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
