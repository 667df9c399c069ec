-- migrate: no-transaction
-- Indexes for the list screens at a million rows (server/list.ts pages the ids of a list over
-- its sort key, then reads the page's rows): each sort and the filters that select few rows
-- read an index in the list's order instead of sorting or scanning the table.
--
-- Built CONCURRENTLY, each statement on its own (server/migrate.ts): on a large database each
-- index takes seconds to build while reads and writes of its table go on.

-- The order of the ordered collections is (position, rank, id) (migration 021): with the rank
-- in the index, a page reads the index alone.
CREATE INDEX CONCURRENTLY assets_order_idx ON assets (position, rank, id);
DROP INDEX CONCURRENTLY IF EXISTS assets_position_idx;
CREATE INDEX CONCURRENTLY application_assets_order_idx
  ON application_assets (application_id, position, rank, id);
DROP INDEX CONCURRENTLY IF EXISTS application_assets_position_idx;

-- Sorts by type and gender (the id breaks ties).
CREATE INDEX CONCURRENTLY assets_type_id_idx ON assets (type, id);
CREATE INDEX CONCURRENTLY assets_gender_id_idx ON assets (gender, id);

-- The activity log filtered by kind, newest first.
CREATE INDEX CONCURRENTLY asset_events_kind_idx ON asset_events (subject_kind, created_at, seq);

-- The users list: by e-mail (its default), by role, and its search.
CREATE INDEX CONCURRENTLY users_email_idx ON users (email, id);
CREATE INDEX CONCURRENTLY users_role_idx ON users (role, id);
CREATE INDEX CONCURRENTLY users_email_trgm_idx ON users USING gin (email gin_trgm_ops);

-- Deleting an asset removes the morph queue entries that fit onto it: without this index every
-- delete read the whole queue. (Its copies, template_id ON DELETE SET NULL, are found through
-- migration 021's assets_template_id_idx.)
CREATE INDEX CONCURRENTLY morph_queue_body_idx ON morph_queue (body_asset_id);
