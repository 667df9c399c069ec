-- Cage mesh events. The spec lists "cage mesh updated" among the asset service's routing keys
-- (asset.cage-mesh-updated.v1), so it goes to the same event log as the other asset events; a
-- cage mesh is linked to no asset, though, so its events name the cage mesh instead. Each row
-- names exactly one subject.
ALTER TABLE asset_events ALTER COLUMN asset_id DROP NOT NULL;
ALTER TABLE asset_events ADD COLUMN cage_mesh_id text;
ALTER TABLE asset_events ADD CONSTRAINT asset_events_one_subject
  CHECK ((asset_id IS NULL) <> (cage_mesh_id IS NULL));
CREATE INDEX asset_events_cage_mesh_idx ON asset_events (cage_mesh_id, created_at, seq)
  WHERE cage_mesh_id IS NOT NULL;
