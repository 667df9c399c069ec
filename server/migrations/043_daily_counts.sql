-- migrate: no-transaction
-- The dashboard's series (GET /v1/dashboard), kept per UTC day as rows change instead of
-- grouped on each read: assets by type and day of creation, accounts by day of sign-up
-- (registered or guest), morph jobs by day of request (and those of them that failed), model
-- bytes uploaded and delivered by day the delivery version settled, and stored files by day of
-- upload. Each is what grouping the rows there now would give, so a delete or a change of type
-- moves the count it was in. A day of '-infinity' holds the all-time total of the few figures
-- the dashboard shows whole (failures, bytes), so no read sums every day since the first.
--
-- Striped rows as migration 033 keeps its counts (count_stripe()); only the sum means anything.
-- Inserts and deletes are counted per statement from transition tables; an update only when it
-- changes what a row is counted as (a row trigger with WHEN), so a morph job's progress reports
-- and an asset's edits cost nothing here.
--
-- The rows there before are counted in batches of 2,000 by key, each committed on its own, so
-- writes go on during the backfill. daily_counts_backfill holds how far a table's backfill got:
-- a change is counted by the trigger when its row's key is at or below that mark (or the table
-- is done), else by the backfill when it reaches the row. A trigger reads the mark FOR SHARE and a
-- batch moves it FOR UPDATE, so a batch waits for the writers that read the old mark and holds
-- new ones until it commits: a row is counted by one or the other, never both or neither.

CREATE TABLE IF NOT EXISTS daily_counts (
  metric text NOT NULL,
  day date NOT NULL,
  key text NOT NULL,
  stripe smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (metric, day, key, stripe)
);

-- A table's row here: its backfill has counted the keys up to `done_to` (NULL: none yet).
CREATE TABLE IF NOT EXISTS daily_counts_backfill (
  tbl text PRIMARY KEY,
  done_to text
);

CREATE OR REPLACE FUNCTION utc_day(at timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT (at AT TIME ZONE 'UTC')::date
$$;

-- What a row counts for: (metric, day, key, n). One function per table.
CREATE OR REPLACE FUNCTION daily_counts_of_asset(r assets)
RETURNS TABLE (metric text, day date, key text, n bigint) LANGUAGE sql AS $$
  SELECT 'assets', utc_day(r.created_at), r.type, 1::bigint
$$;

CREATE OR REPLACE FUNCTION daily_counts_of_user(r users)
RETURNS TABLE (metric text, day date, key text, n bigint) LANGUAGE sql AS $$
  SELECT 'signups', utc_day(r.created_at),
    CASE WHEN r.role = 'anonymous' THEN 'guest' ELSE 'registered' END, 1::bigint
$$;

CREATE OR REPLACE FUNCTION daily_counts_of_morph(r morph_queue)
RETURNS TABLE (metric text, day date, key text, n bigint) LANGUAGE sql AS $$
  SELECT 'morphs', utc_day(r.created_at), 'requested', 1::bigint
  UNION ALL SELECT 'morphs', d, 'failed', 1::bigint
  FROM unnest(ARRAY[utc_day(r.created_at), '-infinity'::date]) d WHERE r.status = 'failed'
$$;

CREATE OR REPLACE FUNCTION daily_counts_of_delivery(r model_deliveries)
RETURNS TABLE (metric text, day date, key text, n bigint) LANGUAGE sql AS $$
  SELECT 'deliveries', d, k, v
  FROM unnest(ARRAY[utc_day(r.updated_at), '-infinity'::date]) d,
    LATERAL (VALUES ('uploaded', r.original_size),
      ('delivered', coalesce(r.delivery_size, r.original_size)),
      ('failed', CASE WHEN r.status = 'failed' THEN 1 ELSE 0 END)) AS x(k, v)
  WHERE r.status <> 'pending' AND v <> 0
$$;

CREATE OR REPLACE FUNCTION daily_counts_of_file(r stored_files)
RETURNS TABLE (metric text, day date, key text, n bigint) LANGUAGE sql AS $$
  SELECT 'storage', d, k, v
  FROM unnest(ARRAY[utc_day(r.created_at), '-infinity'::date]) d,
    LATERAL (VALUES ('bytes', r.size), ('files', 1::bigint)) AS x(k, v)
$$;

-- Adds the counts `changes` (a query of metric, day, key, n) gives, in key order so two
-- statements lock the rows of a stripe in one order (the triggers below write theirs the same way).
CREATE OR REPLACE FUNCTION daily_counts_apply(changes text, VARIADIC args text[] DEFAULT '{}')
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'INSERT INTO daily_counts (metric, day, key, stripe, n)
     SELECT metric, day, key, count_stripe(), sum(n) FROM (%s) c
     GROUP BY metric, day, key HAVING sum(n) <> 0 ORDER BY metric, day, key
     ON CONFLICT (metric, day, key, stripe) DO UPDATE SET n = daily_counts.n + EXCLUDED.n',
    changes) USING args;
END $$;

-- Each table's trigger functions, written out per table (static SQL, whose plans plpgsql keeps
-- across calls): the statement trigger of inserts and deletes, and the row trigger of updates
-- that change what a row counts for (the old row's counts out, the new row's in). The backfill's
-- mark is read FOR SHARE (see above); without a row the table is done and every row counts. Then
-- the triggers and each table's mark, once: a run after a failed one finds them and goes on
-- from the mark.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
      ('assets', 'id', 'daily_counts_of_asset', 'type, created_at'),
      ('users', 'id', 'daily_counts_of_user', 'role, created_at'),
      ('morph_queue', 'id', 'daily_counts_of_morph', 'status, created_at'),
      ('model_deliveries', 'model_key', 'daily_counts_of_delivery',
        'status, updated_at, original_size, delivery_size'),
      ('stored_files', 'key', 'daily_counts_of_file', 'size, created_at'))
    AS v(tbl, pk, fn, cols)
  LOOP
    EXECUTE format($f$
      CREATE OR REPLACE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
      DECLARE
        mark text;
        marked boolean;
      BEGIN
        SELECT done_to, true INTO mark, marked FROM daily_counts_backfill
        WHERE tbl = %2$L FOR SHARE;
        IF marked AND mark IS NULL THEN
          RETURN NULL;
        END IF;
        IF TG_OP = 'INSERT' THEN
          INSERT INTO daily_counts (metric, day, key, stripe, n)
          SELECT c.metric, c.day, c.key, count_stripe(), sum(c.n) FROM new_rows r, %3$I(r) c
          WHERE marked IS NULL OR r.%4$I <= mark
          GROUP BY 1, 2, 3 HAVING sum(c.n) <> 0 ORDER BY 1, 2, 3
          ON CONFLICT (metric, day, key, stripe) DO UPDATE SET n = daily_counts.n + EXCLUDED.n;
        ELSE
          INSERT INTO daily_counts (metric, day, key, stripe, n)
          SELECT c.metric, c.day, c.key, count_stripe(), -sum(c.n) FROM old_rows r, %3$I(r) c
          WHERE marked IS NULL OR r.%4$I <= mark
          GROUP BY 1, 2, 3 HAVING sum(c.n) <> 0 ORDER BY 1, 2, 3
          ON CONFLICT (metric, day, key, stripe) DO UPDATE SET n = daily_counts.n + EXCLUDED.n;
        END IF;
        RETURN NULL;
      END $body$
    $f$, t.tbl || '_daily_counts_rows', t.tbl, t.fn, t.pk);
    EXECUTE format($f$
      CREATE OR REPLACE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
      DECLARE
        mark text;
        marked boolean;
      BEGIN
        SELECT done_to, true INTO mark, marked FROM daily_counts_backfill
        WHERE tbl = %2$L FOR SHARE;
        IF marked AND (mark IS NULL OR OLD.%4$I > mark) THEN
          RETURN NULL;
        END IF;
        INSERT INTO daily_counts (metric, day, key, stripe, n)
        SELECT x.metric, x.day, x.key, count_stripe(), sum(x.n) FROM (
          SELECT c.metric, c.day, c.key, c.n FROM %3$I(NEW) c
          UNION ALL SELECT c.metric, c.day, c.key, -c.n FROM %3$I(OLD) c) x
        GROUP BY 1, 2, 3 HAVING sum(x.n) <> 0 ORDER BY 1, 2, 3
        ON CONFLICT (metric, day, key, stripe) DO UPDATE SET n = daily_counts.n + EXCLUDED.n;
        RETURN NULL;
      END $body$
    $f$, t.tbl || '_daily_counts_change', t.tbl, t.fn, t.pk);

    CONTINUE WHEN EXISTS (SELECT 1 FROM pg_trigger
      WHERE tgname = t.tbl || '_daily_counts_insert' AND tgrelid = t.tbl::regclass);
    INSERT INTO daily_counts_backfill (tbl, done_to) VALUES (t.tbl, NULL);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      t.tbl || '_daily_counts_insert', t.tbl, t.tbl || '_daily_counts_rows');
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      t.tbl || '_daily_counts_delete', t.tbl, t.tbl || '_daily_counts_rows');
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I FOR EACH ROW
      WHEN ((%s) IS DISTINCT FROM (%s))
      EXECUTE FUNCTION %I()',
      t.tbl || '_daily_counts_update', t.tbl,
      (SELECT string_agg('OLD.' || c, ', ') FROM unnest(string_to_array(t.cols, ', ')) c),
      (SELECT string_agg('NEW.' || c, ', ') FROM unnest(string_to_array(t.cols, ', ')) c),
      t.tbl || '_daily_counts_change');
  END LOOP;
END $$;

-- The backfill, table by table in batches of 2,000 keys. On PGlite the migration is one
-- transaction (server/migrate.ts), whose statements above already wrote: it cannot commit here.
DO $$
DECLARE
  one_transaction boolean := txid_current_if_assigned() IS NOT NULL;
  t record;
  mark text;
  upto text;
BEGIN
  FOR t IN SELECT * FROM (VALUES
      ('assets', 'id', 'daily_counts_of_asset'),
      ('users', 'id', 'daily_counts_of_user'),
      ('morph_queue', 'id', 'daily_counts_of_morph'),
      ('model_deliveries', 'model_key', 'daily_counts_of_delivery'),
      ('stored_files', 'key', 'daily_counts_of_file'))
    AS v(tbl, pk, fn)
  LOOP
    LOOP
      SELECT done_to INTO mark FROM daily_counts_backfill WHERE tbl = t.tbl FOR UPDATE;
      EXIT WHEN NOT FOUND;
      EXECUTE format('SELECT %1$I FROM %2$I WHERE %1$I > $1 ORDER BY %1$I OFFSET 1999 LIMIT 1',
        t.pk, t.tbl) INTO upto USING coalesce(mark, '');
      IF upto IS NULL THEN
        -- The last batch runs to the end of the table, and the table is done.
        PERFORM daily_counts_apply(format(
          'SELECT c.* FROM %I r, %I(r) c WHERE r.%I > $1[1]', t.tbl, t.fn, t.pk),
          coalesce(mark, ''));
        DELETE FROM daily_counts_backfill WHERE tbl = t.tbl;
      ELSE
        PERFORM daily_counts_apply(format(
          'SELECT c.* FROM %I r, %I(r) c WHERE r.%I > $1[1] AND r.%I <= $1[2]',
          t.tbl, t.fn, t.pk, t.pk), coalesce(mark, ''), upto);
        UPDATE daily_counts_backfill SET done_to = upto WHERE tbl = t.tbl;
      END IF;
      IF NOT one_transaction THEN
        COMMIT;
      END IF;
    END LOOP;
  END LOOP;
END $$;

-- The dashboard's "needs attention": the latest failed deliveries, and the record each failed
-- model belongs to (found by its address).
CREATE INDEX CONCURRENTLY IF NOT EXISTS model_deliveries_failed_idx
  ON model_deliveries (updated_at, model_key) WHERE status = 'failed';
CREATE INDEX CONCURRENTLY IF NOT EXISTS assets_model_url_idx ON assets (model_url);
CREATE INDEX CONCURRENTLY IF NOT EXISTS cage_meshes_model_url_idx ON cage_meshes (model_url);
