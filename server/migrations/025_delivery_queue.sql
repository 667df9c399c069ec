-- The delivery derivation's queue (server/deliveries.ts) is model_deliveries' `pending` rows:
-- claimed_at NULL is waiting its turn, claimed_at set is being derived (a claim older than the
-- lease was abandoned). Servers claim the oldest waiting row of an uploader who has nothing
-- being derived, so one uploader's models never hold up another's.
--   requested_by  the uploader (users.id, not a foreign key: the row outlives the account);
--                 NULL for the server's own (backfill, morph results), one uploader of its own
--   queued_at     when it joined the queue (NULL on rows from before the queue)
--   attempts      claims so far; a row abandoned after the third is given up as `failed`
ALTER TABLE model_deliveries ADD COLUMN requested_by text;
ALTER TABLE model_deliveries ADD COLUMN queued_at timestamptz;
ALTER TABLE model_deliveries ADD COLUMN attempts integer NOT NULL DEFAULT 0;
CREATE INDEX model_deliveries_queue ON model_deliveries (queued_at, model_key)
  WHERE status = 'pending';
CREATE INDEX model_deliveries_running ON model_deliveries (requested_by, claimed_at)
  WHERE status = 'pending';
