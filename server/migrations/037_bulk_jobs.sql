-- migrate: no-transaction
-- Bulk jobs (server/bulk-jobs.ts): one change (lock, unlock, tag, untag, delete, restore) over
-- every row a list filter matches, run by a worker in batches. Each batch commits the change,
-- the rows' events and the job's cursor and counts together, so a worker that stops half-way
-- leaves the job at a batch boundary: whoever takes it next starts after `cursor` and applies
-- nothing twice. A job is leased (`attempts` is the claim's token, as in the morph queue).
--
-- Every statement runs on its own (server/migrate.ts) and may run twice, so the app's writes go
-- on during it: no statement reads or writes the event log's rows while holding a lock that
-- stops its writers.
--
-- Installations differ in what this file did to the event log. server/migrate.ts records a file
-- by its name, so those that applied its other text keep its result: the generated subject
-- columns rebuilt with the bulk job, in one transaction that rewrote every event under a lock
-- that stopped the app's writes. An installation at 036 runs this text, which leaves those
-- columns alone (no bulk job's event exists before this version runs); 039 then brings both
-- kinds to the same subject columns, kept by a trigger, without a rewrite.
CREATE TABLE IF NOT EXISTS bulk_jobs (
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
CREATE INDEX IF NOT EXISTS bulk_jobs_user_idx ON bulk_jobs (user_id, created_at DESC, id);
CREATE INDEX IF NOT EXISTS bulk_jobs_pending_idx ON bulk_jobs (created_at, id)
  WHERE state IN ('queued', 'running');
-- A restore job walks the Trash in id order (its key is (kind, id)).
CREATE INDEX CONCURRENTLY IF NOT EXISTS trash_id_idx ON trash (id);

-- A job's progress is an event of its own subject: one per batch, so a stream carries the
-- job's progress (and "these rows changed") without the rows' own events. A column without a
-- default is added without writing the table.
ALTER TABLE asset_events ADD COLUMN IF NOT EXISTS bulk_job_id text;

-- Each event still names one subject. The wider check is added NOT VALID (no scan, a moment's
-- lock), proved by VALIDATE, which reads the table while writes go on, then takes the old one's
-- name in one short transaction. A run after a failed one starts the check again.
ALTER TABLE asset_events DROP CONSTRAINT IF EXISTS asset_events_one_subject_wide,
  ADD CONSTRAINT asset_events_one_subject_wide CHECK (num_nonnulls(
    asset_id, cage_mesh_id, tag_id, application_id, user_id, morphed_asset_id, invitation_id,
    bulk_job_id) = 1) NOT VALID;
ALTER TABLE asset_events VALIDATE CONSTRAINT asset_events_one_subject_wide;
DO $$
BEGIN
  ALTER TABLE asset_events DROP CONSTRAINT asset_events_one_subject;
  ALTER TABLE asset_events
    RENAME CONSTRAINT asset_events_one_subject_wide TO asset_events_one_subject;
END $$;
