-- migrate: no-transaction
-- No transaction, for the CONCURRENTLY builds; each step is one statement of its own.
-- Every start looks for the `/demo/` placeholders the seed writes (server/demo-files.ts): these
-- hold only the rows that still have one, so the look costs the placeholders left, not the table.
CREATE INDEX CONCURRENTLY IF NOT EXISTS assets_icon_url_demo_idx
  ON assets (icon_url) WHERE icon_url LIKE '/demo/%';
CREATE INDEX CONCURRENTLY IF NOT EXISTS assets_model_url_demo_idx
  ON assets (model_url) WHERE model_url LIKE '/demo/%';
CREATE INDEX CONCURRENTLY IF NOT EXISTS cage_meshes_model_url_demo_idx
  ON cage_meshes (model_url) WHERE model_url LIKE '/demo/%';
CREATE INDEX CONCURRENTLY IF NOT EXISTS morphed_assets_model_url_demo_idx
  ON morphed_assets (model_url) WHERE model_url LIKE '/demo/%';
