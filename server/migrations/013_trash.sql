-- The Trash (server/trash.ts). A deleted asset or tag leaves its table at once, so every list,
-- count, search, relation and single read stays as it was; this table keeps what restoring it
-- needs: its row and its relation rows (tags, application entries with their positions, user
-- assignments, morphed assets) as JSON, written by `row_to_json` and put back with
-- `json_populate_record(set)`, so a column added later travels without a change here.
CREATE TABLE trash (
  kind text NOT NULL CHECK (kind IN ('asset', 'tag')),
  id text NOT NULL,
  name text NOT NULL,
  -- { row, relations: { <table>: [rows] } }
  data jsonb NOT NULL,
  deleted_by text REFERENCES users (id) ON DELETE SET NULL,
  deleted_at timestamptz NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE INDEX trash_deleted_at_idx ON trash (deleted_at, id);
CREATE INDEX trash_name_idx ON trash (name, id);
CREATE INDEX trash_name_trgm_idx ON trash USING gin (name gin_trgm_ops);
CREATE INDEX trash_deleted_by_idx ON trash (deleted_by);

-- The files a trashed record refers to. The file sweeper keeps every file some `*_url` text
-- column refers to (server/file-sweeper.ts), so these stay stored while the record is in the
-- Trash and become sweepable when it is purged (the rows go with it).
CREATE TABLE trash_files (
  kind text NOT NULL,
  id text NOT NULL,
  file_url text NOT NULL,
  PRIMARY KEY (kind, id, file_url),
  FOREIGN KEY (kind, id) REFERENCES trash (kind, id) ON DELETE CASCADE
);
CREATE INDEX trash_files_url_idx ON trash_files (file_url);
