-- Two more subjects of the event log (server/events.ts): a morphed asset (moved to the Trash,
-- restored from it, purged) and an invitation (sent, sent again, revoked: it has no user row
-- until it is accepted). Each row still names exactly one subject; `subject_kind` and
-- `subject_id` (015) are computed again to know them.
ALTER TABLE asset_events
  ADD COLUMN morphed_asset_id text,
  ADD COLUMN invitation_id text;
ALTER TABLE asset_events DROP CONSTRAINT asset_events_one_subject;
ALTER TABLE asset_events ADD CONSTRAINT asset_events_one_subject CHECK (num_nonnulls(
  asset_id, cage_mesh_id, tag_id, application_id, user_id, morphed_asset_id, invitation_id) = 1);
-- A generated column's expression cannot be altered: drop them (and their index), add them anew.
ALTER TABLE asset_events DROP COLUMN subject_kind, DROP COLUMN subject_id;
ALTER TABLE asset_events
  ADD COLUMN subject_kind text GENERATED ALWAYS AS (CASE
    WHEN asset_id IS NOT NULL THEN 'asset'
    WHEN cage_mesh_id IS NOT NULL THEN 'cage-mesh'
    WHEN tag_id IS NOT NULL THEN 'tag'
    WHEN application_id IS NOT NULL THEN 'application'
    WHEN morphed_asset_id IS NOT NULL THEN 'morphed-asset'
    WHEN invitation_id IS NOT NULL THEN 'invitation'
    ELSE 'user' END) STORED,
  ADD COLUMN subject_id text GENERATED ALWAYS AS (coalesce(
    asset_id, cage_mesh_id, tag_id, application_id, user_id, morphed_asset_id, invitation_id))
    STORED;
CREATE INDEX asset_events_subject_idx ON asset_events (subject_id, created_at, seq);
