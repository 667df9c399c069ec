-- Counts the list screens show, kept as rows change instead of counted on each read: the
-- assets of each type (GET /v1/assets/countByType without filters) and the assets carrying
-- each tag (the tags list's assetCount). Counting them grouped every asset, or every link of
-- the page's tags, on each request.
--
-- Each count is the sum of a few striped rows: a transaction adds its change to the stripe of
-- its connection, so writers on other connections do not wait for each other's commit on one
-- hot row. A stripe may go negative (a link counted on one stripe, removed on another); only
-- the sum means anything. Statement triggers with transition tables write one row per type
-- or tag a statement touched, so a bulk change writes a few rows, not one per asset.
--
-- The backfill groups every asset and every tag link once (under a second at a million
-- assets), holding writes to assets and asset_tags until the migration commits.

CREATE TABLE asset_type_counts (
  type text NOT NULL,
  stripe smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (type, stripe)
);

CREATE TABLE tag_asset_counts (
  tag_id text NOT NULL,
  stripe smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (tag_id, stripe)
);

-- Eight stripes: enough that a pool's connections rarely share one.
CREATE FUNCTION count_stripe() RETURNS smallint LANGUAGE sql AS $$
  SELECT (pg_backend_pid() % 8)::smallint
$$;

CREATE FUNCTION asset_type_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Rows in type order, so two statements lock the rows of a stripe in one order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO asset_type_counts (type, stripe, n)
    SELECT type, count_stripe(), count(*) FROM new_rows GROUP BY type ORDER BY type
    ON CONFLICT (type, stripe) DO UPDATE SET n = asset_type_counts.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO asset_type_counts (type, stripe, n)
    SELECT type, count_stripe(), -count(*) FROM old_rows GROUP BY type ORDER BY type
    ON CONFLICT (type, stripe) DO UPDATE SET n = asset_type_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO asset_type_counts (type, stripe, n)
    SELECT type, count_stripe(), sum(delta) FROM (
      SELECT o.type, -1 AS delta FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE n.type IS DISTINCT FROM o.type
      UNION ALL
      SELECT n.type, 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE n.type IS DISTINCT FROM o.type) changed
    GROUP BY type ORDER BY type
    ON CONFLICT (type, stripe) DO UPDATE SET n = asset_type_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER assets_type_count_insert AFTER INSERT ON assets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION asset_type_counts_add();
CREATE TRIGGER assets_type_count_delete AFTER DELETE ON assets
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION asset_type_counts_add();
CREATE TRIGGER assets_type_count_update AFTER UPDATE ON assets
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION asset_type_counts_add();

CREATE FUNCTION tag_asset_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO tag_asset_counts (tag_id, stripe, n)
    SELECT tag_id, count_stripe(), count(*) FROM new_rows GROUP BY tag_id ORDER BY tag_id
    ON CONFLICT (tag_id, stripe) DO UPDATE SET n = tag_asset_counts.n + EXCLUDED.n;
  ELSE
    INSERT INTO tag_asset_counts (tag_id, stripe, n)
    SELECT tag_id, count_stripe(), -count(*) FROM old_rows GROUP BY tag_id ORDER BY tag_id
    ON CONFLICT (tag_id, stripe) DO UPDATE SET n = tag_asset_counts.n + EXCLUDED.n;
    -- Links removed with their tag (ON DELETE CASCADE): its counts go too.
    DELETE FROM tag_asset_counts c
    WHERE c.tag_id IN (SELECT DISTINCT tag_id FROM old_rows)
      AND NOT EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER asset_tags_count_insert AFTER INSERT ON asset_tags
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tag_asset_counts_add();
CREATE TRIGGER asset_tags_count_delete AFTER DELETE ON asset_tags
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tag_asset_counts_add();

INSERT INTO asset_type_counts (type, stripe, n) SELECT type, 0, count(*) FROM assets GROUP BY type;
INSERT INTO tag_asset_counts (tag_id, stripe, n)
SELECT tag_id, 0, count(*) FROM asset_tags GROUP BY tag_id;
