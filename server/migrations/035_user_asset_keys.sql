-- migrate: no-transaction
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
-- Every statement runs on its own (server/migrate.ts) and may run twice, so the app's writes go
-- on during it: the triggers first, so what is written meanwhile is copied; then the copies of
-- the assignments made before, in batches of 2,000, each committed on its own; then NOT NULL,
-- proved by a constraint validated without stopping writes; then the indexes, CONCURRENTLY.

ALTER TABLE user_assets
  ADD COLUMN IF NOT EXISTS asset_name text,
  ADD COLUMN IF NOT EXISTS asset_type text,
  ADD COLUMN IF NOT EXISTS asset_created_at timestamptz;

CREATE OR REPLACE FUNCTION user_assets_copy_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.name, a.type, a.created_at
  INTO NEW.asset_name, NEW.asset_type, NEW.asset_created_at
  FROM assets a WHERE a.id = NEW.asset_id FOR SHARE;
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER user_assets_copy_keys BEFORE INSERT OR UPDATE OF asset_id ON user_assets
  FOR EACH ROW EXECUTE FUNCTION user_assets_copy_keys();

CREATE OR REPLACE FUNCTION user_assets_follow_asset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_assets
  SET asset_name = NEW.name, asset_type = NEW.type, asset_created_at = NEW.created_at
  WHERE asset_id = NEW.id;
  RETURN NULL;
END $$;

-- Row by row, and only for the changes that matter: the other updates of an asset (its place,
-- its lock, its version) do not call it.
CREATE OR REPLACE TRIGGER assets_user_asset_keys AFTER UPDATE OF name, type, created_at ON assets
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.type IS DISTINCT FROM NEW.type
    OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION user_assets_follow_asset();

-- The assignments made before, in the order of their key. A batch skips the rows a trigger
-- filled meanwhile (a change of an asset that committed while the batch read it makes the batch
-- find the row filled, so it leaves it). On PGlite the migration is one transaction
-- (server/migrate.ts), whose statements above already wrote: it cannot commit here.
DO $$
DECLARE
  one_transaction boolean := txid_current_if_assigned() IS NOT NULL;
  last_user text := '';
  last_asset text := '';
  end_user text;
  end_asset text;
BEGIN
  LOOP
    SELECT user_id, asset_id INTO end_user, end_asset FROM user_assets
    WHERE (user_id, asset_id) > (last_user, last_asset)
    ORDER BY user_id, asset_id OFFSET 1999 LIMIT 1;
    -- The last batch runs to the end of the table.
    IF end_user IS NULL THEN
      SELECT user_id, asset_id INTO end_user, end_asset FROM user_assets
      ORDER BY user_id DESC, asset_id DESC LIMIT 1;
    END IF;
    EXIT WHEN end_user IS NULL OR (end_user, end_asset) <= (last_user, last_asset);
    UPDATE user_assets x
    SET asset_name = a.name, asset_type = a.type, asset_created_at = a.created_at
    FROM assets a
    WHERE a.id = x.asset_id AND x.asset_name IS NULL
      AND (x.user_id, x.asset_id) > (last_user, last_asset)
      AND (x.user_id, x.asset_id) <= (end_user, end_asset);
    last_user := end_user;
    last_asset := end_asset;
    IF NOT one_transaction THEN
      COMMIT;
    END IF;
  END LOOP;
END $$;

-- SET NOT NULL scans the table under a lock that stops its readers and writers, unless a valid
-- CHECK constraint proves it; VALIDATE reads the table letting writes go on.
ALTER TABLE user_assets DROP CONSTRAINT IF EXISTS user_assets_keys_copied;
ALTER TABLE user_assets ADD CONSTRAINT user_assets_keys_copied CHECK (asset_name IS NOT NULL
  AND asset_type IS NOT NULL AND asset_created_at IS NOT NULL) NOT VALID;
ALTER TABLE user_assets VALIDATE CONSTRAINT user_assets_keys_copied;
ALTER TABLE user_assets
  ALTER COLUMN asset_name SET NOT NULL,
  ALTER COLUMN asset_type SET NOT NULL,
  ALTER COLUMN asset_created_at SET NOT NULL;
ALTER TABLE user_assets DROP CONSTRAINT user_assets_keys_copied;

-- The list's two sorts; a filter by type reads the user's range of the first (the type is in
-- it, so the assets are not read).
CREATE INDEX CONCURRENTLY user_assets_name_idx ON user_assets (user_id, asset_name, asset_id)
  INCLUDE (asset_type);
CREATE INDEX CONCURRENTLY user_assets_created_at_idx
  ON user_assets (user_id, asset_created_at, asset_id);
