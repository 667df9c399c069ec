-- migrate: no-transaction
-- The assets list filtered by one tag pages over the tag's links alone: each link carries a copy
-- of what the list sorts by (its asset's place, name, type, gender and times), indexed per tag,
-- so a page reads one index range and joins assets for its own rows only. Walking the assets in
-- their order and probing each one for the tag read about 10,500 of a million assets for the first
-- page of a tag on one asset in 200, and all of the tag's assets, then a sort, for a page deeper in.
-- As migration 035 does for user_assets; and a user's assignments are counted here, as migration
-- 033 counts a tag's links.
--
-- Triggers keep the copies: a link copies them from its asset when it is made (a restore from
-- the Trash too, whatever its captured row says), and a change of those columns of an asset is
-- written to its links in the same transaction. The asset is read FOR NO KEY UPDATE, the lock the
-- link's version bump (asset_tags_version) takes right after: a lock taken FOR SHARE there would
-- be raised by two transactions tagging one asset, each waiting for the other. A change of the
-- asset committing meanwhile is either read here or, waiting for this transaction, finds the new
-- link to update.
--
-- Every statement runs on its own (server/migrate.ts) and may run twice, so the app's writes go
-- on during it: the triggers first, so what is written meanwhile is copied; then the copies of
-- the links made before, in batches of 2,000, each committed on its own; then NOT NULL, proved by
-- a constraint validated without stopping writes; then the indexes, CONCURRENTLY.

ALTER TABLE asset_tags
  ADD COLUMN IF NOT EXISTS asset_position integer,
  ADD COLUMN IF NOT EXISTS asset_rank text COLLATE "C",
  ADD COLUMN IF NOT EXISTS asset_name text,
  ADD COLUMN IF NOT EXISTS asset_type text,
  ADD COLUMN IF NOT EXISTS asset_gender text,
  ADD COLUMN IF NOT EXISTS asset_created_at timestamptz,
  ADD COLUMN IF NOT EXISTS asset_updated_at timestamptz;

CREATE OR REPLACE FUNCTION asset_tags_copy_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.position, a.rank, a.name, a.type, a.gender, a.created_at, a.updated_at
  INTO NEW.asset_position, NEW.asset_rank, NEW.asset_name, NEW.asset_type, NEW.asset_gender,
    NEW.asset_created_at, NEW.asset_updated_at
  FROM assets a WHERE a.id = NEW.asset_id FOR NO KEY UPDATE;
  -- The error the foreign key gives, before NOT NULL would give another.
  IF NOT FOUND THEN
    RAISE foreign_key_violation USING MESSAGE = format(
      'insert or update on table "asset_tags" violates foreign key constraint "asset_tags_asset_id_fkey": no asset %s',
      NEW.asset_id);
  END IF;
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER asset_tags_copy_keys BEFORE INSERT OR UPDATE OF asset_id ON asset_tags
  FOR EACH ROW EXECUTE FUNCTION asset_tags_copy_keys();

CREATE OR REPLACE FUNCTION asset_tags_follow_asset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE asset_tags
  SET asset_position = NEW.position, asset_rank = NEW.rank, asset_name = NEW.name,
    asset_type = NEW.type, asset_gender = NEW.gender, asset_created_at = NEW.created_at,
    asset_updated_at = NEW.updated_at
  WHERE asset_id = NEW.id;
  RETURN NULL;
END $$;

-- Row by row, and only for the changes that matter: the other updates of an asset (its files,
-- its lock, its version) do not call it.
CREATE OR REPLACE TRIGGER assets_tag_keys
  AFTER UPDATE OF position, rank, name, type, gender, created_at, updated_at ON assets
  FOR EACH ROW
  WHEN (OLD.position IS DISTINCT FROM NEW.position OR OLD.rank IS DISTINCT FROM NEW.rank
    OR OLD.name IS DISTINCT FROM NEW.name OR OLD.type IS DISTINCT FROM NEW.type
    OR OLD.gender IS DISTINCT FROM NEW.gender OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.updated_at IS DISTINCT FROM NEW.updated_at)
  EXECUTE FUNCTION asset_tags_follow_asset();

-- The links made before, in the order of their key. A batch skips the rows a trigger filled
-- meanwhile (a change of an asset that committed while the batch read it makes the batch find the
-- row filled, so it leaves it). On PGlite the migration is one transaction (server/migrate.ts),
-- whose statements above already wrote: it cannot commit here.
DO $$
DECLARE
  one_transaction boolean := txid_current_if_assigned() IS NOT NULL;
  last_asset text := '';
  last_tag text := '';
  end_asset text;
  end_tag text;
BEGIN
  LOOP
    SELECT asset_id, tag_id INTO end_asset, end_tag FROM asset_tags
    WHERE (asset_id, tag_id) > (last_asset, last_tag)
    ORDER BY asset_id, tag_id OFFSET 1999 LIMIT 1;
    -- The last batch runs to the end of the table.
    IF end_asset IS NULL THEN
      SELECT asset_id, tag_id INTO end_asset, end_tag FROM asset_tags
      ORDER BY asset_id DESC, tag_id DESC LIMIT 1;
    END IF;
    EXIT WHEN end_asset IS NULL OR (end_asset, end_tag) <= (last_asset, last_tag);
    UPDATE asset_tags x
    SET asset_position = a.position, asset_rank = a.rank, asset_name = a.name,
      asset_type = a.type, asset_gender = a.gender, asset_created_at = a.created_at,
      asset_updated_at = a.updated_at
    FROM assets a
    WHERE a.id = x.asset_id AND x.asset_name IS NULL
      AND (x.asset_id, x.tag_id) > (last_asset, last_tag)
      AND (x.asset_id, x.tag_id) <= (end_asset, end_tag);
    last_asset := end_asset;
    last_tag := end_tag;
    IF NOT one_transaction THEN
      COMMIT;
    END IF;
  END LOOP;
END $$;

-- SET NOT NULL scans the table under a lock that stops its readers and writers, unless a valid
-- CHECK constraint proves it; VALIDATE reads the table letting writes go on.
ALTER TABLE asset_tags DROP CONSTRAINT IF EXISTS asset_tags_keys_copied;
ALTER TABLE asset_tags ADD CONSTRAINT asset_tags_keys_copied CHECK (asset_position IS NOT NULL
  AND asset_rank IS NOT NULL AND asset_name IS NOT NULL AND asset_type IS NOT NULL
  AND asset_gender IS NOT NULL AND asset_created_at IS NOT NULL
  AND asset_updated_at IS NOT NULL) NOT VALID;
ALTER TABLE asset_tags VALIDATE CONSTRAINT asset_tags_keys_copied;
ALTER TABLE asset_tags
  ALTER COLUMN asset_position SET NOT NULL,
  ALTER COLUMN asset_rank SET NOT NULL,
  ALTER COLUMN asset_name SET NOT NULL,
  ALTER COLUMN asset_type SET NOT NULL,
  ALTER COLUMN asset_gender SET NOT NULL,
  ALTER COLUMN asset_created_at SET NOT NULL,
  ALTER COLUMN asset_updated_at SET NOT NULL;
ALTER TABLE asset_tags DROP CONSTRAINT asset_tags_keys_copied;

-- The list's sorts, each a range per tag (the asset's id breaks ties, as in the assets' own).
CREATE INDEX CONCURRENTLY IF NOT EXISTS asset_tags_order_idx
  ON asset_tags (tag_id, asset_position, asset_rank, asset_id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS asset_tags_name_idx
  ON asset_tags (tag_id, asset_name, asset_id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS asset_tags_type_idx
  ON asset_tags (tag_id, asset_type, asset_id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS asset_tags_gender_idx
  ON asset_tags (tag_id, asset_gender, asset_id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS asset_tags_created_at_idx
  ON asset_tags (tag_id, asset_created_at, asset_id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS asset_tags_updated_at_idx
  ON asset_tags (tag_id, asset_updated_at, asset_id);

-- A user's assignments, kept as rows come and go (as migration 033 keeps a tag's links): a user's
-- assets list counted them on each request, 10,001 index entries for a user with ten thousand.
-- Striped rows (count_stripe(), migration 033); only the sum means anything.
CREATE TABLE IF NOT EXISTS user_asset_counts (
  user_id text NOT NULL,
  stripe smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (user_id, stripe)
);

CREATE OR REPLACE FUNCTION user_asset_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Rows in user order, so two statements lock the rows of a stripe in one order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO user_asset_counts (user_id, stripe, n)
    SELECT user_id, count_stripe(), count(*) FROM new_rows GROUP BY user_id ORDER BY user_id
    ON CONFLICT (user_id, stripe) DO UPDATE SET n = user_asset_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO user_asset_counts (user_id, stripe, n)
    SELECT user_id, count_stripe(), -count(*) FROM old_rows GROUP BY user_id ORDER BY user_id
    ON CONFLICT (user_id, stripe) DO UPDATE SET n = user_asset_counts.n + EXCLUDED.n;
    -- Assignments removed with their user (ON DELETE CASCADE): its counts go too.
    DELETE FROM user_asset_counts c
    WHERE c.user_id IN (SELECT DISTINCT user_id FROM old_rows)
      AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id);
  END IF;
  RETURN NULL;
END $$;

-- The triggers and the backfill in one statement (one transaction): creating a trigger waits for
-- the assignments' writers in flight and holds new ones until the backfill has counted, so none
-- is counted twice or missed. A run after a failed one starts the counts again.
DO $$
BEGIN
  DROP TRIGGER IF EXISTS user_assets_count_insert ON user_assets;
  DROP TRIGGER IF EXISTS user_assets_count_delete ON user_assets;
  CREATE TRIGGER user_assets_count_insert AFTER INSERT ON user_assets
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_asset_counts_add();
  CREATE TRIGGER user_assets_count_delete AFTER DELETE ON user_assets
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_asset_counts_add();
  DELETE FROM user_asset_counts;
  INSERT INTO user_asset_counts (user_id, stripe, n)
  SELECT user_id, 0, count(*) FROM user_assets GROUP BY user_id;
END $$;
