-- migrate: no-transaction
-- No transaction, for the CONCURRENTLY builds; each other step is one statement of its own.
-- List reads at a million rows: the Trash (10,000 records) and the users filtered by status.
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
