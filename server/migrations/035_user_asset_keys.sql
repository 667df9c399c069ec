-- A user's assets list pages over user_assets alone: each assignment carries a copy of what
-- the list sorts and filters by (its asset's name, type and creation time), indexed per user,
-- so a page reads one index range and joins assets for its own rows only. Walking the assets
-- by name and probing each one's assignment read most of a million assets for a filter by type.
--
-- Triggers keep the copies: an assignment copies them from its asset when it is made (a
-- restore from the Trash too, whatever its captured row says), and a change of an asset's name,
-- type or creation time is written to its assignments in the same transaction. The asset is
-- read FOR SHARE, so a rename committing meanwhile is either read here or, waiting for this
-- transaction, finds the new assignment to update.
--
-- The backfill rewrites every assignment once (about 2 s a million at the measured size),
-- holding writes to user_assets and assets until the migration commits.

ALTER TABLE user_assets
  ADD COLUMN asset_name text,
  ADD COLUMN asset_type text,
  ADD COLUMN asset_created_at timestamptz;

-- Every row is written once, without the table's indexes, which are then built in one sort
-- each: at a million assignments, updating the rows through their indexes took 18 s.
ALTER TABLE user_assets DROP CONSTRAINT user_assets_pkey;
DROP INDEX user_assets_asset_idx;
SET LOCAL maintenance_work_mem = '256MB';

UPDATE user_assets x
SET asset_name = a.name, asset_type = a.type, asset_created_at = a.created_at
FROM assets a
WHERE a.id = x.asset_id;

ALTER TABLE user_assets
  ALTER COLUMN asset_name SET NOT NULL,
  ALTER COLUMN asset_type SET NOT NULL,
  ALTER COLUMN asset_created_at SET NOT NULL,
  ADD PRIMARY KEY (user_id, asset_id);
CREATE INDEX user_assets_asset_idx ON user_assets (asset_id);

-- The list's two sorts; a filter by type reads the user's range of the first (the type is in
-- it, so the assets are not read).
CREATE INDEX user_assets_name_idx ON user_assets (user_id, asset_name, asset_id)
  INCLUDE (asset_type);
CREATE INDEX user_assets_created_at_idx ON user_assets (user_id, asset_created_at, asset_id);

CREATE FUNCTION user_assets_copy_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.name, a.type, a.created_at
  INTO NEW.asset_name, NEW.asset_type, NEW.asset_created_at
  FROM assets a WHERE a.id = NEW.asset_id FOR SHARE;
  RETURN NEW;
END $$;

CREATE TRIGGER user_assets_copy_keys BEFORE INSERT OR UPDATE OF asset_id ON user_assets
  FOR EACH ROW EXECUTE FUNCTION user_assets_copy_keys();

CREATE FUNCTION user_assets_follow_asset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_assets
  SET asset_name = NEW.name, asset_type = NEW.type, asset_created_at = NEW.created_at
  WHERE asset_id = NEW.id;
  RETURN NULL;
END $$;

-- Row by row, and only for the changes that matter: the other updates of an asset (its place,
-- its lock, its version) do not call it.
CREATE TRIGGER assets_user_asset_keys AFTER UPDATE OF name, type, created_at ON assets
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.type IS DISTINCT FROM NEW.type
    OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION user_assets_follow_asset();
