-- migrate: no-transaction
-- The morph queue (server/morph-claims.ts) serves its requesters in turn, as the delivery queue
-- serves its uploaders (migration 042): a free worker takes the oldest queued entry of the
-- requester with an entry queued who was served least recently (one never served first).
-- Taking the oldest queued entry of anyone let one user's 20 entries all go before an entry
-- another user queued a moment later.
--
-- morph_requesters has a row per requester who has queued an entry ('' for entries without
-- one: queued before migration 011, or their user deleted since): how many of their entries are
-- queued, kept by the triggers below, and the turn they were last served. Turns are numbered by
-- one sequence, so their order is the same on every server whatever its clock says. A claim
-- walks the requesters with something queued in turn order and reads that requester's oldest
-- entry from one index range: a handful of index entries however many entries wait or ended.
--
-- Every statement runs on its own (server/migrate.ts) and may run twice, so morphs are queued
-- during it.
CREATE SEQUENCE IF NOT EXISTS morph_turns;

CREATE TABLE IF NOT EXISTS morph_requesters (
  requester text PRIMARY KEY,
  queued integer NOT NULL DEFAULT 0,
  served_turn bigint
);

-- The turn order, over the requesters with something queued.
CREATE INDEX IF NOT EXISTS morph_requesters_turn_idx
  ON morph_requesters (served_turn NULLS FIRST, requester) WHERE queued > 0;

-- A row trigger, fired only by a change of the columns that count: progress reports (the
-- queue's busiest writes) change neither.
CREATE OR REPLACE FUNCTION morph_requesters_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = 'queued' AND NEW.status = 'queued'
     AND OLD.requested_by IS NOT DISTINCT FROM NEW.requested_by THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.status = 'queued' THEN
    UPDATE morph_requesters SET queued = queued - 1
    WHERE requester = coalesce(OLD.requested_by, '');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'queued' THEN
    INSERT INTO morph_requesters (requester, queued) VALUES (coalesce(NEW.requested_by, ''), 1)
    ON CONFLICT (requester) DO UPDATE SET queued = morph_requesters.queued + 1;
  END IF;
  RETURN NULL;
END $$;

-- The trigger and the counts in one statement (one transaction): creating the trigger waits for
-- the queue's writers in flight and holds new ones until the counts are taken, so none is
-- counted twice or missed. A run after a failed one counts again, keeping the turns.
DO $$
BEGIN
  DROP TRIGGER IF EXISTS morph_queue_requester_count ON morph_queue;
  CREATE TRIGGER morph_queue_requester_count
    AFTER INSERT OR UPDATE OF status, requested_by OR DELETE ON morph_queue
    FOR EACH ROW EXECUTE FUNCTION morph_requesters_count();
  UPDATE morph_requesters SET queued = 0 WHERE queued <> 0;
  INSERT INTO morph_requesters (requester, queued)
  SELECT coalesce(requested_by, ''), count(*) FROM morph_queue WHERE status = 'queued'
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (requester) DO UPDATE SET queued = EXCLUDED.queued;
END $$;

-- A requester's oldest queued entry, one range of an index that holds the queued entries alone.
CREATE INDEX CONCURRENTLY IF NOT EXISTS morph_queue_requester_turn_idx
  ON morph_queue ((coalesce(requested_by, '')), created_at, id)
  WHERE status = 'queued';
