-- Indexes for the list screens at a million rows (server/list.ts pages the ids of a list over
-- its sort key, then reads the page's rows): each sort and the filters that select few rows
-- read an index in the list's order instead of sorting or scanning the table.
--
-- On a large database each index takes seconds to build and holds writes to its table until
-- the migration commits (reads go on): upgrade at a quiet time.

-- The order of the ordered collections is (position, rank, id) (migration 021): with the rank
-- in the index, a page reads the index alone.
CREATE INDEX assets_order_idx ON assets (position, rank, id);
DROP INDEX assets_position_idx;
CREATE INDEX application_assets_order_idx ON application_assets (application_id, position, rank, id);
DROP INDEX application_assets_position_idx;

-- Sorts by type and gender (the id breaks ties).
CREATE INDEX assets_type_id_idx ON assets (type, id);
CREATE INDEX assets_gender_id_idx ON assets (gender, id);

-- The activity log filtered by kind, newest first.
CREATE INDEX asset_events_kind_idx ON asset_events (subject_kind, created_at, seq);

-- The users list: by e-mail (its default), by role, and its search.
CREATE INDEX users_email_idx ON users (email, id);
CREATE INDEX users_role_idx ON users (role, id);
CREATE INDEX users_email_trgm_idx ON users USING gin (email gin_trgm_ops);

-- Deleting an asset clears template_id in its copies (ON DELETE SET NULL) and removes the morph
-- queue entries that fit onto it: without these indexes every delete read both tables whole.
CREATE INDEX assets_template_idx ON assets (template_id) WHERE template_id IS NOT NULL;
CREATE INDEX morph_queue_body_idx ON morph_queue (body_asset_id);
