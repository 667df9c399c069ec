/**
 * `npm run seed:scale -- --assets 1000000 --users 100000`: fills the PostgreSQL database of
 * DATABASE_URL (migrated first, with the admin of ADMIN_EMAIL / ADMIN_PASSWORD and the demo
 * catalogue, as a first start would) with that many assets and users, and around them what the
 * app would have written: tags, applications and their ordered assets, cage meshes, morphed
 * assets and morph queue entries, user assignments, pending invitations, trashed assets, and
 * the event log of their making. Every table is filled by `INSERT ... SELECT generate_series`
 * inside the database, so a million assets take well under a minute. Given the server's file
 * store (as the command line does: DATA_DIR/files or the S3_* bucket), the rows point at stored
 * demo files, so the first start has nothing to rewrite; without one they hold `/demo/`
 * placeholders, which a server's start points at files (server/demo-files.ts).
 *
 * Run again with larger numbers, it adds the rows between what the last run made and the new
 * figures (the bench seeds 10,000, measures, then grows the same database to a million).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, loadConfig } from '../server/config';
import { createPgDb, type Db } from '../server/db';
import { provideDemoFiles, storeDemoFiles, type DemoPlaceholder } from '../server/demo-files';
import { migrate } from '../server/migrate';
import { openStorage } from '../server/open-storage';
import { seed } from '../server/seed';
import type { Storage } from '../server/storage';

export interface ScaleSize {
  assets: number;
  users: number;
}

const TYPES = [
  'outfit',
  'top',
  'bottom',
  'footwear',
  'hair',
  'beard',
  'glasses',
  'headwear',
  'facewear',
  'body',
];
const COLOURS = ['Black', 'White', 'Red', 'Blue', 'Olive', 'Sand', 'Neon', 'Pastel', 'Denim'];
const NOUNS = ['Hoodie', 'Jeans', 'Sneakers', 'Bob', 'Beanie', 'Blazer', 'Skirt', 'Boots', 'Cap'];
const BODY_TYPES = ['Slim', 'Athletic', 'Average', 'Broad'];
const TAGS = 200;
const APPLICATIONS = 20;
/** The tables that grow with the assets and users. */
const BULK_TABLES = [
  'assets',
  'asset_tags',
  'asset_events',
  'application_assets',
  'users',
  'user_assets',
  'trash',
];
/** Where this seed records how far it went, so a second run adds only the rest. */
const PROGRESS_KEY = 'scale_seed';

const sqlArray = (items: readonly string[]) => `ARRAY[${items.map((i) => `'${i}'`).join(',')}]`;
/** The `n`th (1-based, SQL expression) item of a text array literal, cycling. */
const pick = (items: readonly string[], n: string) =>
  `(${sqlArray(items)})[1 + ((${n}) % ${items.length})]`;
/** The id of row `n` of a table: a 6-digit prefix of the table, then the number in hex. */
const idOf = (prefix: string, n: string) => `'${prefix}' || lpad(to_hex(${n}), 18, '0')`;

/**
 * The order column's value for a row ranked `rank` (a SQL expression, 1-based) after the rows
 * already ordered. The one place that knows the order column's shape.
 */
const orderValue = (rank: string) => `(${rank})::int`;

const ids = {
  asset: (n: string) => idOf('5ca1e0', n),
  trashed: (n: string) => idOf('5ca1e1', n),
  user: (n: string) => idOf('5ca1e2', n),
  tag: (n: string) => idOf('5ca1e3', n),
  application: (n: string) => idOf('5ca1e4', n),
  applicationAsset: (n: string) => idOf('5ca1e5', n),
  cageMesh: (n: string) => idOf('5ca1e6', n),
  morphed: (n: string) => idOf('5ca1e7', n),
  queue: (n: string) => idOf('5ca1e8', n),
  invitation: (n: string) => idOf('5ca1e9', n),
  event: (kind: number, n: string) => idOf(`5ca1f${kind}`, n),
};

/** A timestamp spread over 2024 for row `n` of `of`. */
const timeOf = (n: string, of: number) =>
  `timestamptz '2024-01-01' + (${n})::float8 / ${Math.max(of, 1)} * interval '365 days'`;

/**
 * When trashed record `n` of `of` was deleted: spread over the last 20 days, inside the Trash's
 * default 30-day retention, so a server started on the seed keeps them rather than purging the
 * whole Trash at once.
 */
const deletedAtOf = (n: string, of: number) =>
  `now() - (${n})::float8 / ${Math.max(of, 1)} * interval '20 days'`;

/**
 * The file columns' values of the rows `from`..`to` (SQL expressions of the row number `i`):
 * stored demo files in `storage` (the ones an asset's colour and type or a cage's body pick,
 * and a file of its own for each morphed asset, which the morph worker may replace and delete),
 * or `/demo/` placeholders without one.
 */
async function fileAddresses(
  tx: Db,
  storage: Storage | undefined,
  morphs: { from: number; to: number },
) {
  const type = pick(TYPES, 'i * 7');
  const number = `lpad((1 + i % 15)::text, 3, '0')`;
  const cagePlaceholder = `'/demo/cage-meshes/' || ${pick(['male', 'female'], 'i')} || '-'
    || ${pick(['slim', 'athletic', 'average', 'broad'], 'i')} || '.glb'`;
  if (!storage) {
    return {
      icon: `'/demo/icons/' || ${type} || '-' || ${number} || '.png'`,
      model: `'/demo/models/' || ${type} || '-' || ${number} || '.glb'`,
      cage: cagePlaceholder,
      morphed: `'/demo/morphed/' || lpad((1 + i % 20)::text, 3, '0') || '.glb'`,
      params: [] as string[][],
    };
  }
  // A shared file is picked by the first word of the row's name (its colour) and its type.
  const colour = (name: string, url: string): DemoPlaceholder => ({ url, id: name, name });
  const icons = COLOURS.map((c) => colour(c, '/demo/icons/icon.png'));
  const models = TYPES.flatMap((t) => COLOURS.map((c) => colour(c, `/demo/models/${t}-001.glb`)));
  const cages = BODY_TYPES.map((b) => colour(b, '/demo/cage-meshes/body.glb'));
  const morphed = Array.from({ length: morphs.to - morphs.from }, (_, n) => ({
    url: '/demo/morphed/001.glb',
    id: String(morphs.from + 1 + n),
    name: `Morph ${morphs.from + 1 + n}`,
  }));
  const stored = await storeDemoFiles(tx, storage, [...icons, ...models, ...cages, ...morphed]);
  const at = (start: number, length: number) => stored.slice(start, start + length);
  const [iconFiles, modelFiles, cageFiles, morphedFiles] = [
    at(0, icons.length),
    at(icons.length, models.length),
    at(icons.length + models.length, cages.length),
    at(icons.length + models.length + cages.length, morphed.length),
  ];
  return {
    icon: pick(iconFiles, 'i'),
    // The model of type (i * 7) % 10 in colour i % 9, as the name picks them.
    model: `(${sqlArray(modelFiles)})[1 + ((i * 7) % ${TYPES.length}) * ${COLOURS.length} + i % ${COLOURS.length}]`,
    cage: pick(cageFiles, 'i'),
    morphed: `($1::text[])[i - ${morphs.from}]`,
    params: [morphedFiles],
  };
}

/**
 * Seeds `db` up to `size`; returns what it added. With `storage`, the rows point at demo files
 * stored there (see fileAddresses), so a server starting on it stores and rewrites nothing.
 */
export async function seedScale(
  db: Db,
  size: ScaleSize,
  log: (line: string) => void = () => undefined,
  storage?: Storage,
): Promise<ScaleSize> {
  await migrate(db);
  await seed(db, {
    adminEmail: process.env.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL,
    adminPassword: process.env.ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
    nodeEnv: 'development',
  });
  // The demo catalogue's few hundred rows, as a first start would.
  if (storage) await provideDemoFiles(db, storage);
  const added = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ value: string }>(
      'SELECT value FROM app_meta WHERE key = $1 FOR UPDATE',
      [PROGRESS_KEY],
    );
    const done: ScaleSize = rows[0]
      ? (JSON.parse(rows[0].value) as ScaleSize)
      : { assets: 0, users: 0 };
    const from = { assets: done.assets, users: done.users };
    const to = {
      assets: Math.max(size.assets, from.assets),
      users: Math.max(size.users, from.users),
    };
    // Per-row triggers that the app needs for single changes, not for rows nobody has seen:
    // a version bump per tag link, and the commit-order renumbering of each event (the rows
    // get their seq in insertion order, which is their time order here).
    await tx.exec(`ALTER TABLE asset_tags DISABLE TRIGGER asset_tags_version;
      ALTER TABLE asset_events DISABLE TRIGGER asset_events_commit_order;
      SET LOCAL maintenance_work_mem = '256MB';`);
    // A superuser may also skip the per-row foreign key checks: these rows refer to rows made
    // just before them, by construction.
    const { rows: role } = await tx.query<{ rolsuper: boolean }>(
      'SELECT rolsuper FROM pg_roles WHERE rolname = current_user',
    );
    if (role[0]?.rolsuper) await tx.exec('SET LOCAL session_replication_role = replica');
    // Loading a large share of a table is faster without its secondary indexes, built again
    // at the end in one sort each (as pg_restore does).
    const rebuilt =
      to.assets >= 2 * from.assets + 10_000
        ? (
            await tx.query<{ name: string; definition: string }>(
              `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
               WHERE i.schemaname = current_schema() AND i.tablename = ANY($1::text[])
                 AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
              [BULK_TABLES],
            )
          ).rows
        : [];
    for (const index of rebuilt) await tx.exec(`DROP INDEX "${index.name}"`);
    const step = async (what: string, sql: string, params?: unknown[]) => {
      const started = Date.now();
      await (params ? tx.query(sql, params as string[][]) : tx.exec(sql));
      log(`  ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    };
    const admin = `(SELECT id FROM users WHERE role = 'admin' AND id NOT LIKE '5ca1e2%'
      ORDER BY created_at, id LIMIT 1)`;
    const range = (key: keyof ScaleSize, per = 1) =>
      `generate_series(${Math.floor(from[key] / per) + 1}, ${Math.floor(to[key] / per)})`;
    const startedFiles = Date.now();
    const files = await fileAddresses(tx, storage, {
      from: Math.floor(from.assets / 100),
      to: Math.floor(to.assets / 100),
    });
    if (storage) log(`  demo files: ${((Date.now() - startedFiles) / 1000).toFixed(1)} s`);

    // Events carry their subject's name, as migration 036's trigger (skipped here) gives it.
    if (from.assets === 0) {
      await step(
        'tags and applications',
        `INSERT INTO tags (id, name, created_at, updated_at)
         SELECT ${ids.tag('i')}, 'Scale tag ' || i, ${timeOf('i', TAGS)}, ${timeOf('i', TAGS)}
         FROM generate_series(1, ${TAGS}) i;
         INSERT INTO applications (id, name, created_at, updated_at)
         SELECT ${ids.application('i')}, 'Scale application ' || i, ${timeOf('i', APPLICATIONS)},
           ${timeOf('i', APPLICATIONS)}
         FROM generate_series(1, ${APPLICATIONS}) i;
         INSERT INTO asset_events (id, tag_id, routing_key, actor_id, data, created_at, subject_name)
         SELECT ${ids.event(0, 'i')}, ${ids.tag('i')}, 'tag.created.v1', ${admin},
           jsonb_build_object('name', 'Scale tag ' || i), ${timeOf('i', TAGS)}, 'Scale tag ' || i
         FROM generate_series(1, ${TAGS}) i;
         INSERT INTO asset_events (id, application_id, routing_key, actor_id, data, created_at,
           subject_name)
         SELECT ${ids.event(1, 'i')}, ${ids.application('i')}, 'application.created.v1', ${admin},
           jsonb_build_object('name', 'Scale application ' || i), ${timeOf('i', APPLICATIONS)},
           'Scale application ' || i
         FROM generate_series(1, ${APPLICATIONS}) i;`,
      );
    }

    const type = pick(TYPES, 'i * 7');
    await step(
      `assets ${from.assets + 1}..${to.assets}`,
      `INSERT INTO assets (id, name, type, gender, description, icon_url, model_url, locked,
         position, created_at, updated_at)
       SELECT ${ids.asset('i')},
         ${pick(COLOURS, 'i')} || ' ' || ${pick(NOUNS, 'i / 9')} || ' ' || i,
         ${type}, ${pick(['male', 'female', 'unisex'], 'i / 3')}, '',
         ${files.icon},
         ${files.model},
         i % 10 = 0,
         ${orderValue(`last.position + i - ${from.assets}`)},
         ${timeOf('i', to.assets)}, ${timeOf('i', to.assets)} + (i % 97) * interval '1 hour'
       FROM ${range('assets')} i, (SELECT coalesce(max(position), 0) AS position FROM assets) last;
       INSERT INTO asset_events (id, asset_id, routing_key, actor_id, data, created_at, subject_name)
       SELECT ${ids.event(2, 'i')}, ${ids.asset('i')}, 'asset.created.v1', ${admin},
         jsonb_build_object('asset', jsonb_build_object('id', ${ids.asset('i')},
           'name', ${pick(COLOURS, 'i')} || ' ' || ${pick(NOUNS, 'i / 9')} || ' ' || i,
           'type', ${type})),
         ${timeOf('i', to.assets)}, ${pick(COLOURS, 'i')} || ' ' || ${pick(NOUNS, 'i / 9')} || ' ' || i
       FROM ${range('assets')} i;`,
    );
    // About half the assets carry a tag, a fifth a second one; each link with the copies of its
    // asset's sort keys that migration 040's trigger (skipped here) gives it.
    await step(
      'asset tags',
      `INSERT INTO asset_tags (asset_id, tag_id, created_at, asset_position, asset_rank, asset_name,
         asset_type, asset_gender, asset_created_at, asset_updated_at)
       SELECT a.id, t.tag_id, ${timeOf('t.i', to.assets)}, a.position, a.rank, a.name, a.type,
         a.gender, a.created_at, a.updated_at
       FROM (SELECT i, ${ids.tag(`1 + (i * 7) % ${TAGS}`)} AS tag_id
             FROM ${range('assets')} i WHERE i % 2 = 0
             UNION ALL
             SELECT i, ${ids.tag(`1 + (i * 7 + 1) % ${TAGS}`)}
             FROM ${range('assets')} i WHERE i % 5 = 0) t
       JOIN assets a ON a.id = ${ids.asset('t.i')};`,
    );
    // Application 1 holds every other asset (a large ordered collection), each of the others
    // one asset in 40.
    await step(
      'application assets',
      `INSERT INTO application_assets (id, application_id, asset_id, position, synced_at, created_at)
       SELECT ${ids.applicationAsset('i')}, ${ids.application('n.app')}, ${ids.asset('i')},
         ${orderValue(`coalesce(last.position, 0) + row_number() OVER (PARTITION BY n.app ORDER BY i)`)},
         CASE WHEN i % 3 = 0 THEN NULL ELSE ${timeOf('i', to.assets)} END, ${timeOf('i', to.assets)}
       FROM ${range('assets')} i,
         LATERAL (SELECT CASE WHEN i % 2 = 0 THEN 1 ELSE 2 + (i / 40) % ${APPLICATIONS - 1} END AS app) n
         LEFT JOIN (SELECT application_id, max(position) AS position FROM application_assets
                    GROUP BY application_id) last ON last.application_id = ${ids.application('n.app')}
       WHERE i % 2 = 0 OR i % 40 = 1;
       INSERT INTO asset_events (id, asset_id, routing_key, actor_id, data, created_at, subject_name)
       SELECT '5ca1f3' || substr(x.id, 7), x.asset_id, 'asset.added-to-application.v1', ${admin},
         jsonb_build_object('applicationId', x.application_id, 'applicationAssetId', x.id,
           'position', x.position), x.created_at, a.name
       FROM application_assets x JOIN assets a ON a.id = x.asset_id
       WHERE x.id >= ${ids.applicationAsset(`${from.assets + 1}`)}
         AND x.id <= ${ids.applicationAsset(`${to.assets}`)};`,
    );
    // Cage meshes, morphed assets and queue entries: one for every hundred assets. A morph
    // fits asset 100i - 1 (footwear) onto asset 100i - 3 (a body: i * 7 % 10 = 9).
    await step(
      'cage meshes',
      `INSERT INTO cage_meshes (id, name, gender, body_type, model_url, created_at, updated_at)
       SELECT ${ids.cageMesh('i')}, ${pick(BODY_TYPES, 'i')} || ' cage ' || i,
         ${pick(['male', 'female'], 'i')}, ${pick(['slim', 'athletic', 'average', 'broad'], 'i')},
         ${files.cage},
         ${timeOf('i', to.assets / 100)}, ${timeOf('i', to.assets / 100)}
       FROM ${range('assets', 100)} i;
       INSERT INTO asset_events (id, cage_mesh_id, routing_key, actor_id, data, created_at,
         subject_name)
       SELECT ${ids.event(4, 'i')}, ${ids.cageMesh('i')}, 'asset.cage-mesh-updated.v1', ${admin},
         jsonb_build_object('created', true), ${timeOf('i', to.assets / 100)},
         ${pick(['Slim', 'Athletic', 'Average', 'Broad'], 'i')} || ' cage ' || i
       FROM ${range('assets', 100)} i;`,
    );
    await step(
      'morphed assets',
      `INSERT INTO morphed_assets (id, source_asset_id, body_asset_id, name, model_url, created_at)
       SELECT ${ids.morphed('i')}, ${ids.asset('i * 100 - 1')}, ${ids.asset('i * 100 - 3')},
         'Morph ' || i, ${files.morphed}, ${timeOf('i', to.assets / 100)}
       FROM ${range('assets', 100)} i`,
      files.params,
    );
    await step(
      'morph queue',
      `INSERT INTO morph_queue (id, source_asset_id, body_asset_id, status, progress, error,
         morphed_asset_id, requested_by, created_at, updated_at)
       SELECT ${ids.queue('i')}, ${ids.asset('i * 100 - 1')}, ${ids.asset('i * 100 - 3')},
         s.status, CASE s.status WHEN 'completed' THEN 100 WHEN 'failed' THEN 40 ELSE 0 END,
         CASE WHEN s.status = 'failed' THEN 'Mesh fitting failed' END,
         CASE WHEN s.status = 'completed' THEN ${ids.morphed('i')} END, ${admin},
         ${timeOf('i', to.assets / 100)}, ${timeOf('i', to.assets / 100)} + interval '1 minute'
       FROM ${range('assets', 100)} i,
         LATERAL (SELECT CASE WHEN i % 20 = 0 THEN 'failed' WHEN i % 50 = 1 THEN 'queued'
                  ELSE 'completed' END AS status) s;`,
    );
    // One asset in a hundred was deleted: in the Trash, as the app keeps it, with its event.
    await step(
      'trash',
      `INSERT INTO trash (kind, id, name, data, deleted_by, deleted_at)
       SELECT 'asset', ${ids.trashed('i')}, 'Trashed ' || ${pick(NOUNS, 'i')} || ' ' || i,
         jsonb_build_object('row', jsonb_build_object('id', ${ids.trashed('i')},
             'name', 'Trashed ' || ${pick(NOUNS, 'i')} || ' ' || i, 'type', ${type},
             'gender', 'unisex', 'description', '', 'icon_url', null, 'model_url', null,
             'texture_url', null, 'normal_map_url', null, 'source_url', null,
             'is_template', false, 'template_id', null, 'locked', false, 'position', i,
             'application_id', null, 'version', 1,
             'created_at', ${timeOf('i', to.assets / 100)}, 'updated_at', ${timeOf('i', to.assets / 100)}),
           'relations', '{}'::jsonb, 'links', '{}'::jsonb),
         ${admin}, ${deletedAtOf('i', to.assets / 100)}
       FROM ${range('assets', 100)} i;
       INSERT INTO asset_events (id, asset_id, routing_key, actor_id, data, created_at, subject_name)
       SELECT ${ids.event(5, 'i')}, ${ids.trashed('i')}, 'asset.deleted.v1', ${admin},
         jsonb_build_object('asset', jsonb_build_object('id', ${ids.trashed('i')},
           'name', 'Trashed ' || ${pick(NOUNS, 'i')} || ' ' || i)),
         ${deletedAtOf('i', to.assets / 100)}, 'Trashed ' || ${pick(NOUNS, 'i')} || ' ' || i
       FROM ${range('assets', 100)} i;`,
    );
    // Users: a few developers and admins among them, some never verified, some disabled, each
    // with two assets; and one pending invitation for every hundred users. Assignments carry
    // the copies of their assets' keys that migration 035's trigger writes (skipped above).
    await step(
      `users ${from.users + 1}..${to.users}`,
      `INSERT INTO users (id, email, role, verified_at, created_at, last_sign_in_at, disabled_at, assets)
       SELECT ${ids.user('i')}, 'user' || i || '@scale.example',
         CASE WHEN i % 100 = 0 THEN 'developer' WHEN i % 1000 = 1 THEN 'admin' ELSE 'user' END,
         CASE WHEN i % 7 <> 0 THEN ${timeOf('i', to.users)} END, ${timeOf('i', to.users)},
         CASE WHEN i % 3 <> 0 THEN ${timeOf('i', to.users)} + interval '3 days' END,
         CASE WHEN i % 50 = 0 THEN ${timeOf('i', to.users)} + interval '9 days' END,
         ARRAY[${ids.asset(`1 + (i::bigint * 7919) % ${to.assets}`)}, ${ids.asset(`1 + (i::bigint * 104729) % ${to.assets}`)}]
       FROM ${range('users')} i;
       INSERT INTO user_assets (user_id, asset_id, created_at, asset_name, asset_type, asset_created_at)
       SELECT u.id, x.asset_id, u.created_at, a.name, a.type, a.created_at
       FROM users u, unnest(u.assets) AS x(asset_id), assets a
       WHERE a.id = x.asset_id AND u.id >= ${ids.user(`${from.users + 1}`)} AND u.id <= ${ids.user(`${to.users}`)}
       ON CONFLICT DO NOTHING;
       INSERT INTO invitations (id, email, role, token_hash, invited_by, created_at, sent_at, expires_at)
       SELECT ${ids.invitation('i')}, 'invited' || i || '@scale.example', 'user',
         md5('scale invitation ' || i), ${admin}, now(), now(), now() + interval '7 days'
       FROM ${range('users', 100)} i;`,
    );
    // The admin has one asset in a hundred (the "user assets" screen of a busy account).
    await step(
      "the admin's assets",
      `INSERT INTO user_assets (user_id, asset_id, created_at, asset_name, asset_type, asset_created_at)
       SELECT ${admin}, a.id, ${timeOf('i', to.assets / 100)}, a.name, a.type, a.created_at
       FROM ${range('assets', 100)} i JOIN assets a ON a.id = ${ids.asset('i * 100')}
       ON CONFLICT DO NOTHING;
       UPDATE users SET assets = ARRAY(SELECT asset_id FROM user_assets x
         WHERE x.user_id = users.id ORDER BY created_at, asset_id) WHERE id = ${admin};`,
    );
    // The block counts of the ordered collections (migration 021), as its triggers would have
    // kept them row by row.
    await step(
      'order blocks',
      `DELETE FROM order_blocks WHERE collection = 'assets' OR collection LIKE 'application:%';
       INSERT INTO order_blocks (collection, block, n)
       SELECT 'assets', floor(position / 1024.0)::int, count(*) FROM assets GROUP BY 2;
       INSERT INTO order_blocks (collection, block, n)
       SELECT 'application:' || application_id, floor(position / 1024.0)::int, count(*)
       FROM application_assets GROUP BY 1, 2;`,
    );
    // The counts migrations 033, 038 and 040's triggers keep, which the replica role above skipped.
    await step(
      'kept counts',
      `DELETE FROM asset_type_counts;
       INSERT INTO asset_type_counts (type, stripe, n) SELECT type, 0, count(*) FROM assets GROUP BY type;
       DELETE FROM tag_asset_counts;
       INSERT INTO tag_asset_counts (tag_id, stripe, n)
       SELECT tag_id, 0, count(*) FROM asset_tags GROUP BY tag_id;
       DELETE FROM user_asset_counts;
       INSERT INTO user_asset_counts (user_id, stripe, n)
       SELECT user_id, 0, count(*) FROM user_assets GROUP BY user_id;
       DELETE FROM trash_kind_counts;
       INSERT INTO trash_kind_counts (kind, stripe, n) SELECT kind, 0, count(*) FROM trash GROUP BY kind;`,
    );
    const indexed = Date.now();
    for (const index of rebuilt) await tx.exec(index.definition);
    log(`  ${rebuilt.length} indexes built again: ${((Date.now() - indexed) / 1000).toFixed(1)} s`);
    await tx.exec(`ALTER TABLE asset_tags ENABLE TRIGGER asset_tags_version;
      ALTER TABLE asset_events ENABLE TRIGGER asset_events_commit_order;`);
    await tx.query(
      `INSERT INTO app_meta (key, value) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [PROGRESS_KEY, JSON.stringify(to)],
    );
    return { assets: to.assets - from.assets, users: to.users - from.users };
  });
  // Statistics for the planner and a visibility map for index-only scans, as autovacuum
  // would leave them a while after such a load.
  const started = Date.now();
  await db.exec('VACUUM ANALYZE');
  log(`  vacuum analyze: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return added;
}

async function main() {
  const { values } = parseArgs({
    options: { assets: { type: 'string' }, users: { type: 'string' } },
  });
  const url = process.env.DATABASE_URL;
  const size = { assets: Number(values.assets ?? 10_000), users: Number(values.users ?? 1_000) };
  if (!url || !Number.isSafeInteger(size.assets) || !Number.isSafeInteger(size.users)) {
    console.error(
      'Usage: DATABASE_URL=postgres://... npm run seed:scale -- --assets 1000000 --users 100000',
    );
    process.exit(1);
  }
  const db = createPgDb(url);
  const started = Date.now();
  try {
    // The server's file store, where the rows' demo files go (DATA_DIR/files or the bucket).
    const storage = await openStorage(loadConfig());
    const added = await seedScale(db, size, (line) => console.log(line), storage);
    console.log(
      `Added ${added.assets.toLocaleString('en')} assets and ${added.users.toLocaleString('en')} users in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
