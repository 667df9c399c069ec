-- The Trash holds cage meshes, applications and morphed assets too (server/trash.ts).
ALTER TABLE trash DROP CONSTRAINT trash_kind_check;
ALTER TABLE trash ADD CONSTRAINT trash_kind_check
  CHECK (kind IN ('asset', 'tag', 'cage-mesh', 'application', 'morphed-asset'));
