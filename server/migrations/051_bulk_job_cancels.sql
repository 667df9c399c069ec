-- Who cancelled a bulk job: its starter, or an admin stopping another user's job from the
-- jobs list (server/bulk-job-admin.ts). Kept when that admin's account goes.
ALTER TABLE bulk_jobs ADD COLUMN cancelled_by text REFERENCES users (id) ON DELETE SET NULL;

-- The admins' list of every user's recent jobs reads them newest first.
CREATE INDEX bulk_jobs_created_idx ON bulk_jobs (created_at DESC, id DESC);
