-- Morphed assets placed in applications (POST /v1/application-morphed-assets), and the index
-- the morph worker's lease recovery reads (entries left in processing by a stopped worker).

-- A morphed asset shown in an application. Unlike application_assets it carries no position:
-- applications list their morphed assets by when they were placed.
CREATE TABLE application_morphed_assets (
  id text PRIMARY KEY,
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  morphed_asset_id text NOT NULL REFERENCES morphed_assets (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  UNIQUE (application_id, morphed_asset_id)
);
CREATE INDEX application_morphed_assets_morphed_idx ON application_morphed_assets (morphed_asset_id);

-- The worker finds stale work with `status = 'processing' AND updated_at < now - lease`.
CREATE INDEX morph_queue_status_updated_idx ON morph_queue (status, updated_at);
