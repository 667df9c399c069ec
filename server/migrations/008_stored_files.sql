-- What an upload was called on the uploader's machine, and how large it is. The storage key
-- stays random (it is the file's address); the original name is shown and used for downloads.
-- Files stored before this table existed have no row: they are named by their key.
CREATE TABLE stored_files (
  key text PRIMARY KEY,
  original_name text NOT NULL,
  size bigint NOT NULL,
  content_type text NOT NULL,
  uploaded_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL
);
