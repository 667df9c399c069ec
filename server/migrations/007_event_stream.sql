-- The live event stream (GET /v1/events) uses asset_events.seq as its event ids and resumes a
-- client after the last id it saw, so seq must grow in COMMIT order: once a reader has seen
-- seq N, no event with a smaller seq may become visible later. The identity column (003) is
-- drawn at INSERT, and concurrent transactions commit in any order, so a deferred trigger
-- draws each row's final seq again at commit, under one lock that is held until the commit
-- completes; the next committer draws after it. Taking the lock at commit, not at the INSERT,
-- means a transaction never waits for it while holding row locks others want (no deadlock),
-- and holds it only for the few statements of its commit. Rows keep their relative order (the
-- trigger fires in insertion order), which the changelog relies on.
--
-- The same trigger notifies the `asset_events` channel with the new seq. NOTIFY is delivered
-- only when the transaction commits, to every server listening on this database.
CREATE FUNCTION asset_events_commit_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Arbitrary constant, distinct from the migration lock (7314159265).
  PERFORM pg_advisory_xact_lock(7314159266);
  UPDATE asset_events SET seq = DEFAULT WHERE id = NEW.id RETURNING seq INTO NEW.seq;
  IF FOUND THEN
    PERFORM pg_notify('asset_events', NEW.seq::text);
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER asset_events_commit_order AFTER INSERT ON asset_events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION asset_events_commit_order();
