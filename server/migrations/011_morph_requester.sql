-- Who queued each morph job, so a user's jobs in the queue can be capped (docs/api.md
-- "Limits"): generate counts the requester's queued and processing entries under a per-user
-- advisory lock before inserting. Entries queued before this column have no requester.
ALTER TABLE morph_queue ADD COLUMN requested_by text REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX morph_queue_requester_active_idx ON morph_queue (requested_by)
  WHERE status IN ('queued', 'processing');
