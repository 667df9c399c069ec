-- migrate: no-transaction
-- No transaction, for the CONCURRENTLY builds; each step is one statement of its own.
-- The asset lists filtered on one value of gender, type or locked and ordered by another column
-- walk the order's index and drop the rows the filter does not want. Where the filter's rows
-- cluster in that order (a type that is nearly all of the locked assets, genders whose names
-- sort together) that reads most of the table for one page; an index on the filter then the
-- order reads only the page's rows. These are the shapes admins use most.
CREATE INDEX CONCURRENTLY IF NOT EXISTS assets_gender_name_idx ON assets (gender, name, id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS assets_type_name_idx ON assets (type, name, id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS assets_locked_type_idx ON assets (locked, type, id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS assets_locked_name_idx ON assets (locked, name, id);
