-- 037_bulk_jobs as some installations applied it: it rebuilt the event log's generated subject
-- columns in one transaction. migrate.test.ts upgrades a database from it.
-- Bulk jobs (server/bulk-jobs.ts): one change (lock, unlock, tag, untag, delete, restore) over
-- every row a list filter matches, run by a worker in batches. Each batch commits the change,
-- the rows' events and the job's cursor and counts together, so a worker that stops half-way
-- leaves the job at a batch boundary: whoever takes it next starts after `cursor` and applies
-- nothing twice. A job is leased (`attempts` is the claim's token, as in the morph queue).
CREATE TABLE bulk_jobs (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  action text NOT NULL
    CHECK (action IN ('lock', 'unlock', 'setTag', 'removeTag', 'delete', 'restore')),
  list text NOT NULL CHECK (list IN ('assets', 'trash')),
  filter jsonb NOT NULL,
  tag_id text,
  state text NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'running', 'done', 'cancelled', 'failed')),
  total integer NOT NULL,
  total_is_estimate boolean NOT NULL,
  done integer NOT NULL DEFAULT 0,
  changed integer NOT NULL DEFAULT 0,
  skipped integer NOT NULL DEFAULT 0,
  -- The last id processed, in the job's key order; NULL before the first batch.
  cursor_id text,
  attempts integer NOT NULL DEFAULT 0,
  leased_until timestamptz,
  error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX bulk_jobs_user_idx ON bulk_jobs (user_id, created_at DESC, id);
CREATE INDEX bulk_jobs_pending_idx ON bulk_jobs (created_at, id)
  WHERE state IN ('queued', 'running');
-- A restore job walks the Trash in id order (its key is (kind, id)).
CREATE INDEX trash_id_idx ON trash (id);

-- A job's progress is an event of its own subject: one per batch, so a stream carries the
-- job's progress (and "these rows changed") without the rows' own events.
ALTER TABLE asset_events ADD COLUMN bulk_job_id text;
ALTER TABLE asset_events DROP CONSTRAINT asset_events_one_subject;
ALTER TABLE asset_events ADD CONSTRAINT asset_events_one_subject CHECK (num_nonnulls(
  asset_id, cage_mesh_id, tag_id, application_id, user_id, morphed_asset_id, invitation_id,
  bulk_job_id) = 1);
ALTER TABLE asset_events DROP COLUMN subject_kind, DROP COLUMN subject_id;
ALTER TABLE asset_events
  ADD COLUMN subject_kind text GENERATED ALWAYS AS (CASE
    WHEN asset_id IS NOT NULL THEN 'asset'
    WHEN cage_mesh_id IS NOT NULL THEN 'cage-mesh'
    WHEN tag_id IS NOT NULL THEN 'tag'
    WHEN application_id IS NOT NULL THEN 'application'
    WHEN morphed_asset_id IS NOT NULL THEN 'morphed-asset'
    WHEN invitation_id IS NOT NULL THEN 'invitation'
    WHEN bulk_job_id IS NOT NULL THEN 'bulk-job'
    ELSE 'user' END) STORED,
  ADD COLUMN subject_id text GENERATED ALWAYS AS (coalesce(
    asset_id, cage_mesh_id, tag_id, application_id, user_id, morphed_asset_id, invitation_id,
    bulk_job_id)) STORED;
CREATE INDEX asset_events_subject_idx ON asset_events (subject_id, created_at, seq);
CREATE INDEX asset_events_kind_idx ON asset_events (subject_kind, created_at, seq);
