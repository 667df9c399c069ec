-- Order keys (server/positions.ts): a row's place in its ordered collection is (position, rank,
-- id), so a move, a delete or a restore writes the rows involved only; positions stop being
-- renumbered 1..N and the place the API shows is counted through order_blocks.
--
-- Quick on a million rows: the new columns have a constant default, which PostgreSQL (11 and
-- later) and PGlite record without rewriting the table, and every existing row keeps its
-- position with rank 'a0', so the order is as before. Only the block counts and the template
-- index read the tables once, under a SHARE lock so no change slips between the count and the
-- triggers: writers wait for that read (half a second at a million assets), readers never do.
ALTER TABLE assets ADD COLUMN rank text COLLATE "C" NOT NULL DEFAULT 'a0';
ALTER TABLE application_assets ADD COLUMN rank text COLLATE "C" NOT NULL DEFAULT 'a0';

-- How many rows of a collection ('assets', or 'application:<id>') have a position in
-- [block * 1024, (block + 1) * 1024), block = position >> 10 (an arithmetic shift: floor division,
-- negative positions too): the place of a row is the sum of the blocks before it plus the rows
-- before it in its own block.
CREATE TABLE order_blocks (
  collection text NOT NULL,
  block integer NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (collection, block)
);

CREATE FUNCTION count_order_block(of_collection text, at_position integer, delta integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO order_blocks (collection, block, n)
  VALUES (of_collection, at_position >> 10, delta)
  ON CONFLICT (collection, block) DO UPDATE SET n = order_blocks.n + excluded.n;
$$;

-- Every insert, delete and move of a row counts, whichever path made it (routes, cascades,
-- restores, scripts).
CREATE FUNCTION count_asset_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM count_order_block('assets', OLD.position, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM count_order_block('assets', NEW.position, 1);
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION count_application_asset_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM count_order_block('application:' || OLD.application_id, OLD.position, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM count_order_block('application:' || NEW.application_id, NEW.position, 1);
  END IF;
  RETURN NULL;
END
$$;

LOCK TABLE assets, application_assets IN SHARE MODE;

-- A delete writes the asset's own rows, and looks up the copies made from it (template_id, ON
-- DELETE SET NULL) through this index instead of reading every asset.
CREATE INDEX assets_template_id_idx ON assets (template_id) WHERE template_id IS NOT NULL;

CREATE TRIGGER assets_order_count AFTER INSERT OR DELETE OR UPDATE OF position ON assets
  FOR EACH ROW EXECUTE FUNCTION count_asset_order();
CREATE TRIGGER application_assets_order_count
  AFTER INSERT OR DELETE OR UPDATE OF position, application_id ON application_assets
  FOR EACH ROW EXECUTE FUNCTION count_application_asset_order();

INSERT INTO order_blocks (collection, block, n)
SELECT 'assets', position >> 10, count(*) FROM assets GROUP BY 2;
INSERT INTO order_blocks (collection, block, n)
SELECT 'application:' || application_id, position >> 10, count(*)
FROM application_assets GROUP BY 1, 2;
