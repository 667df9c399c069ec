-- Saved views (server/routes/saved-views.ts): a list screen's filter, sort and columns saved
-- under a name by one user. A name is unique per owner and list whatever its case; the owner's
-- views of a list are read through that index too.
CREATE TABLE IF NOT EXISTS saved_views (
  id uuid PRIMARY KEY,
  owner_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  list text NOT NULL,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  search jsonb NOT NULL,
  columns jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  version integer NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX IF NOT EXISTS saved_views_owner_list_name_idx
  ON saved_views (owner_id, list, lower(name));
