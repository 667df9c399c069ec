-- The catalogue around assets: tags, applications and their ordered assets, cage meshes,
-- morphed assets with their generation queue, and per-user asset assignments. Plus the indexes
-- behind every list's default order and common filters (server/list.ts).

-- Trigram indexes serve the `search` filters (name ILIKE '%term%') of every list. pg_trgm is a
-- trusted extension (PostgreSQL 13+), so a database owner may create it; PGlite loads it in
-- server/db.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Asset positions become one global order 1..N (the first seed numbered them per type).
UPDATE assets SET position = ranked.n
FROM (SELECT id, row_number() OVER (ORDER BY position, created_at, id) AS n FROM assets) AS ranked
WHERE assets.id = ranked.id;

-- Every sortable column carries the id tie-breaker, so a page is one index range scan.
CREATE INDEX assets_position_idx ON assets (position, id);
CREATE INDEX assets_type_position_idx ON assets (type, position, id);
CREATE INDEX assets_gender_position_idx ON assets (gender, position, id);
CREATE INDEX assets_name_idx ON assets (name, id);
CREATE INDEX assets_created_at_idx ON assets (created_at, id);
CREATE INDEX assets_updated_at_idx ON assets (updated_at, id);
CREATE INDEX assets_name_trgm_idx ON assets USING gin (name gin_trgm_ops);
DROP INDEX assets_type_idx;
DROP INDEX assets_gender_idx;

CREATE TABLE tags (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX tags_name_key ON tags (lower(name));
CREATE INDEX tags_name_idx ON tags (name, id);
CREATE INDEX tags_created_at_idx ON tags (created_at, id);
CREATE INDEX tags_name_trgm_idx ON tags USING gin (name gin_trgm_ops);

CREATE TABLE asset_tags (
  asset_id text NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  tag_id text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (asset_id, tag_id)
);
CREATE INDEX asset_tags_tag_idx ON asset_tags (tag_id, asset_id);

CREATE TABLE applications (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX applications_name_idx ON applications (name, id);
CREATE INDEX applications_created_at_idx ON applications (created_at, id);
CREATE INDEX applications_name_trgm_idx ON applications USING gin (name gin_trgm_ops);

-- An asset placed in an application; `position` orders it within that application (1..N).
-- synced_at: when the copy was last synced with its parent asset (sync-with-parent).
CREATE TABLE application_assets (
  id text PRIMARY KEY,
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  asset_id text NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  position integer NOT NULL,
  synced_at timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (application_id, asset_id)
);
CREATE INDEX application_assets_position_idx ON application_assets (application_id, position, id);
CREATE INDEX application_assets_created_at_idx ON application_assets (application_id, created_at, id);
CREATE INDEX application_assets_asset_idx ON application_assets (asset_id);

CREATE TABLE cage_meshes (
  id text PRIMARY KEY,
  name text NOT NULL,
  gender text NOT NULL CHECK (gender IN ('male', 'female', 'unisex')),
  body_type text,
  model_url text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX cage_meshes_name_idx ON cage_meshes (name, id);
CREATE INDEX cage_meshes_created_at_idx ON cage_meshes (created_at, id);
CREATE INDEX cage_meshes_updated_at_idx ON cage_meshes (updated_at, id);
CREATE INDEX cage_meshes_gender_idx ON cage_meshes (gender);
CREATE INDEX cage_meshes_name_trgm_idx ON cage_meshes USING gin (name gin_trgm_ops);

-- The result of fitting a source asset (e.g. an outfit) onto a body asset. One per pair: a
-- regeneration replaces the model in place.
CREATE TABLE morphed_assets (
  id text PRIMARY KEY,
  source_asset_id text NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  body_asset_id text NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  name text NOT NULL,
  model_url text,
  created_at timestamptz NOT NULL,
  UNIQUE (source_asset_id, body_asset_id)
);
CREATE INDEX morphed_assets_created_at_idx ON morphed_assets (created_at, id);
CREATE INDEX morphed_assets_name_idx ON morphed_assets (name, id);
CREATE INDEX morphed_assets_body_idx ON morphed_assets (body_asset_id);
CREATE INDEX morphed_assets_name_trgm_idx ON morphed_assets USING gin (name gin_trgm_ops);

-- Generation jobs. A worker claims the oldest queued entry with
-- `SELECT ... WHERE status = 'queued' ORDER BY created_at FOR UPDATE SKIP LOCKED`, moves it to
-- processing, reports progress, and ends in completed (morphed_asset_id set) or failed (error).
CREATE TABLE morph_queue (
  id text PRIMARY KEY,
  source_asset_id text NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  body_asset_id text NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
  progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  error text,
  morphed_asset_id text REFERENCES morphed_assets (id) ON DELETE SET NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX morph_queue_status_idx ON morph_queue (status, created_at, id);
CREATE INDEX morph_queue_created_at_idx ON morph_queue (created_at, id);
CREATE INDEX morph_queue_updated_at_idx ON morph_queue (updated_at, id);
CREATE INDEX morph_queue_source_idx ON morph_queue (source_asset_id);

-- Assets assigned to a user. users.assets mirrors it (kept in the same transaction) because
-- the session record carries the list.
CREATE TABLE user_assets (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  asset_id text NOT NULL REFERENCES assets (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, asset_id)
);
CREATE INDEX user_assets_asset_idx ON user_assets (asset_id);
