-- migrate: no-transaction
-- No transaction, for the CONCURRENTLY builds; each step is one statement of its own.
-- An asset's holders (GET /private/v1/asset-users/{assetId}, server/routes/asset-users.ts) page
-- the asset's assignments newest first, the user breaking ties: one range of this index, however
-- many users hold the asset. It serves the lookups by asset alone too, so the older index on
-- asset_id goes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS user_assets_asset_created_idx
  ON user_assets (asset_id, created_at, user_id);
DROP INDEX CONCURRENTLY IF EXISTS user_assets_asset_idx;
