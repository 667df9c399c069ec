-- Asset editing: the files an asset carries besides its model and icon, templates, and the
-- asset event log behind the back-office changelog (spec §3 "Asset event routing keys").

ALTER TABLE assets
  ADD COLUMN description text NOT NULL DEFAULT '',
  -- Base colour and normal map textures (PNG or JPEG), and the layered source file (.psd).
  ADD COLUMN texture_url text,
  ADD COLUMN normal_map_url text,
  ADD COLUMN source_url text,
  -- A template is copied by POST /private/v1/assets/using-template.
  ADD COLUMN is_template boolean NOT NULL DEFAULT false,
  ADD COLUMN template_id text REFERENCES assets (id) ON DELETE SET NULL;
CREATE INDEX assets_is_template_idx ON assets (is_template) WHERE is_template;

-- Every mutation of an asset appends one row per routing key it publishes. asset_id is not a
-- foreign key: the events of a deleted asset stay readable. actor_id is the user who made the
-- change (NULL for the system, e.g. the morph worker). seq numbers rows in insertion order,
-- so the events of one transaction (which share created_at) keep the order they were recorded.
CREATE TABLE asset_events (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  asset_id text NOT NULL,
  routing_key text NOT NULL,
  actor_id text,
  data jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX asset_events_asset_idx ON asset_events (asset_id, created_at, seq);
