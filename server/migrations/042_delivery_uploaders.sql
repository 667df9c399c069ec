-- migrate: no-transaction
-- The delivery queue (server/deliveries.ts) serves its uploaders in turn: a free derivation goes
-- to the uploader with a model waiting and none being derived who was served least recently
-- (one never served first), then to that uploader's oldest waiting model. Taking the oldest
-- waiting model of any such uploader gave each freed place back to whoever had queued many
-- models first, so two uploaders with long queues of slow models held both places until their
-- queues ran out.
--
-- delivery_uploaders has a row per uploader who has queued a model ('' for the server's own,
-- requested_by NULL: backfill and morph results): how many of their models are pending (waiting
-- or being derived), kept by the triggers below, and when one of theirs was last claimed. A claim
-- walks the uploaders with something pending in turn order, skipping the few with a model being
-- derived, and reads that uploader's oldest model from one index range: a claim reads a handful
-- of index entries however many models and uploaders wait.
--
-- Every statement runs on its own (server/migrate.ts) and may run twice, so uploads go on
-- during it.
CREATE TABLE IF NOT EXISTS delivery_uploaders (
  uploader text PRIMARY KEY,
  pending integer NOT NULL DEFAULT 0,
  served_at timestamptz
);

-- The turn order, over the uploaders with something pending.
CREATE INDEX IF NOT EXISTS delivery_uploaders_turn_idx
  ON delivery_uploaders (served_at NULLS FIRST, uploader) WHERE pending > 0;

-- A row trigger, fired only by a change of the columns that count: claims and their ends (the
-- queue's busiest writes) change claimed_at alone. Each statement that writes a pending row
-- writes one row, but the file sweep's.
CREATE OR REPLACE FUNCTION delivery_uploaders_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = 'pending' AND NEW.status = 'pending'
     AND OLD.requested_by IS NOT DISTINCT FROM NEW.requested_by THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.status = 'pending' THEN
    UPDATE delivery_uploaders SET pending = pending - 1
    WHERE uploader = coalesce(OLD.requested_by, '');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'pending' THEN
    INSERT INTO delivery_uploaders (uploader, pending) VALUES (coalesce(NEW.requested_by, ''), 1)
    ON CONFLICT (uploader) DO UPDATE SET pending = delivery_uploaders.pending + 1;
  END IF;
  RETURN NULL;
END $$;

-- The trigger and the counts in one statement (one transaction): creating the trigger waits for
-- the queue's writers in flight and holds new ones until the counts are taken, so none is
-- counted twice or missed. A run after a failed one counts again, keeping the turns.
DO $$
BEGIN
  DROP TRIGGER IF EXISTS model_deliveries_uploader_count ON model_deliveries;
  CREATE TRIGGER model_deliveries_uploader_count
    AFTER INSERT OR UPDATE OF status, requested_by OR DELETE ON model_deliveries
    FOR EACH ROW EXECUTE FUNCTION delivery_uploaders_count();
  UPDATE delivery_uploaders SET pending = 0 WHERE pending <> 0;
  INSERT INTO delivery_uploaders (uploader, pending)
  SELECT coalesce(requested_by, ''), count(*) FROM model_deliveries WHERE status = 'pending'
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (uploader) DO UPDATE SET pending = EXCLUDED.pending;
END $$;

-- An uploader's oldest waiting model, one index range (the server's own under '', as in
-- delivery_uploaders); and the claims, a handful of rows however many models wait.
CREATE INDEX CONCURRENTLY IF NOT EXISTS model_deliveries_uploader_queue_idx
  ON model_deliveries ((coalesce(requested_by, '')), queued_at, model_key)
  WHERE status = 'pending';
CREATE INDEX CONCURRENTLY IF NOT EXISTS model_deliveries_uploader_claims_idx
  ON model_deliveries ((coalesce(requested_by, '')), claimed_at)
  WHERE status = 'pending' AND claimed_at IS NOT NULL;
-- Replaced by the two above: the claim no longer walks all waiting models in queue order, and
-- its IS NOT DISTINCT FROM probe of an uploader's claims could not use the second.
DROP INDEX CONCURRENTLY IF EXISTS model_deliveries_queue;
DROP INDEX CONCURRENTLY IF EXISTS model_deliveries_running;
