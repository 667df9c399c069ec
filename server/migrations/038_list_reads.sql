-- migrate: no-transaction
-- No transaction, for the CONCURRENTLY builds; each other step is one statement of its own.
-- List reads at a million rows: the Trash (10,000 records), the users filtered by status, and
-- the places of ordered collections.
--
-- The Trash's key is (kind, id), yet a page reads its rows by id alone (server/list.ts pages
-- the ids, then reads those rows): without an index on id each page read the whole Trash. Others
-- walk the Trash in id order too, so the index may be there already.
CREATE INDEX CONCURRENTLY IF NOT EXISTS trash_id_idx ON trash (id);

-- The users list filtered by status (server/user-admin.ts STATUS_SQL, which this expression must
-- match): no index served the expression, so its count read every user, past the count's
-- budget, and answered an estimate. With disabled_at included, the count reads this index alone
-- and a page in e-mail order (the list's default) one range of it.
CREATE INDEX CONCURRENTLY IF NOT EXISTS users_status_email_idx
  ON users ((CASE WHEN disabled_at IS NULL THEN 'active' ELSE 'disabled' END), email, id)
  INCLUDE (disabled_at);

-- The records of each kind, kept as rows come and go, as migration 033 keeps the counts by type:
-- the list's total without a search was counted over every record in the Trash on each request.
-- Striped rows (count_stripe(), migration 033) so writers on other connections do not wait for
-- one hot row; only the sum means anything.
CREATE TABLE IF NOT EXISTS trash_kind_counts (
  kind text NOT NULL,
  stripe smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (kind, stripe)
);

CREATE OR REPLACE FUNCTION trash_kind_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Rows in kind order, so two statements lock the rows of a stripe in one order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO trash_kind_counts (kind, stripe, n)
    SELECT kind, count_stripe(), count(*) FROM new_rows GROUP BY kind ORDER BY kind
    ON CONFLICT (kind, stripe) DO UPDATE SET n = trash_kind_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO trash_kind_counts (kind, stripe, n)
    SELECT kind, count_stripe(), -count(*) FROM old_rows GROUP BY kind ORDER BY kind
    ON CONFLICT (kind, stripe) DO UPDATE SET n = trash_kind_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

-- The triggers and the backfill in one statement (one transaction): creating a trigger waits
-- for the Trash's writers in flight and holds new ones until the backfill has counted, so no
-- record is counted twice or missed. A run after a failed one starts the counts again.
DO $$
BEGIN
  DROP TRIGGER IF EXISTS trash_kind_count_insert ON trash;
  DROP TRIGGER IF EXISTS trash_kind_count_delete ON trash;
  CREATE TRIGGER trash_kind_count_insert AFTER INSERT ON trash
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION trash_kind_counts_add();
  CREATE TRIGGER trash_kind_count_delete AFTER DELETE ON trash
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION trash_kind_counts_add();
  DELETE FROM trash_kind_counts;
  INSERT INTO trash_kind_counts (kind, stripe, n) SELECT kind, 0, count(*) FROM trash GROUP BY kind;
END $$;

-- The place of a row in an ordered collection (server/positions.ts placeSql) summed the counts
-- of every block of 1,024 positions before it: about a thousand rows per asset near the end of
-- a million, for each row of a page. Superblocks of 32 blocks (32,768 positions) count them
-- again, so a place sums at most ~30 superblocks and 31 blocks. They are kept from the block
-- counts by a trigger on order_blocks itself, enabled ALWAYS so that loads which skip the
-- ordinary triggers (session_replication_role = replica) and write the blocks directly keep
-- them too.
CREATE TABLE IF NOT EXISTS order_superblocks (
  collection text NOT NULL,
  superblock integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (collection, superblock)
);

CREATE OR REPLACE FUNCTION count_order_superblock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO order_superblocks (collection, superblock, n)
    VALUES (OLD.collection, OLD.block >> 5, -OLD.n)
    ON CONFLICT (collection, superblock) DO UPDATE SET n = order_superblocks.n + excluded.n;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO order_superblocks (collection, superblock, n)
    VALUES (NEW.collection, NEW.block >> 5, NEW.n)
    ON CONFLICT (collection, superblock) DO UPDATE SET n = order_superblocks.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

-- As for the Trash's counts: the trigger and the backfill in one transaction, which waits for
-- the blocks' writers in flight and holds new ones (a thousand block rows are read at a million
-- assets).
DO $$
BEGIN
  DROP TRIGGER IF EXISTS order_blocks_superblock_count ON order_blocks;
  CREATE TRIGGER order_blocks_superblock_count AFTER INSERT OR UPDATE OR DELETE ON order_blocks
    FOR EACH ROW EXECUTE FUNCTION count_order_superblock();
  ALTER TABLE order_blocks ENABLE ALWAYS TRIGGER order_blocks_superblock_count;
  DELETE FROM order_superblocks;
  INSERT INTO order_superblocks (collection, superblock, n)
  SELECT collection, block >> 5, sum(n) FROM order_blocks GROUP BY 1, 2;
END $$;
