-- The activity log (GET /v1/activity): the one event log (asset_events, 003/006/007) records
-- the events of every kind of record, not only assets and cage meshes: tags, applications and
-- user administration (server/events.ts). Each row still names exactly one subject, in its own
-- column; `subject_kind` and `subject_id` say which, for the log's filters and its links.
ALTER TABLE asset_events
  ADD COLUMN tag_id text,
  ADD COLUMN application_id text,
  -- The user an administration event is about (the actor is actor_id).
  ADD COLUMN user_id text;
ALTER TABLE asset_events DROP CONSTRAINT asset_events_one_subject;
ALTER TABLE asset_events ADD CONSTRAINT asset_events_one_subject
  CHECK (num_nonnulls(asset_id, cage_mesh_id, tag_id, application_id, user_id) = 1);
-- The kinds are the Trash's (server/trash.ts), so a deleted subject is found there.
ALTER TABLE asset_events
  ADD COLUMN subject_kind text GENERATED ALWAYS AS (CASE
    WHEN asset_id IS NOT NULL THEN 'asset'
    WHEN cage_mesh_id IS NOT NULL THEN 'cage-mesh'
    WHEN tag_id IS NOT NULL THEN 'tag'
    WHEN application_id IS NOT NULL THEN 'application'
    ELSE 'user' END) STORED,
  ADD COLUMN subject_id text GENERATED ALWAYS AS
    (coalesce(asset_id, cage_mesh_id, tag_id, application_id, user_id)) STORED;
-- Newest first over everything; one record's events; one actor's.
CREATE INDEX asset_events_created_idx ON asset_events (created_at, seq);
CREATE INDEX asset_events_subject_idx ON asset_events (subject_id, created_at, seq);
CREATE INDEX asset_events_actor_idx ON asset_events (actor_id, created_at, seq);
