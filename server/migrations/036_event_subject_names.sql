-- migrate: no-transaction
-- The activity log searches the name it shows (GET /v1/activity, server/routes/activity.ts):
-- each event row keeps its subject's name, so a search reads one trigram index on the events
-- instead of joining every event to the seven tables its subject may live in (seconds, and a
-- timeout for a name nothing matches, at a million events).
--
-- The name is the subject's current one: a rename rewrites it on the subject's events (an index
-- range, as many rows as the record has events), so the log names a record as it is now and
-- finds it by that name. A record gone for good (purged) keeps the last name it had; a deleted
-- account's events lose its address with the rest of them (forgetAddressesOf).
--
-- Every statement runs on its own (server/migrate.ts) and may run twice: the triggers first, so
-- what is written during the backfill is named; then the backfill in batches of 2,000 events,
-- each committed on its own, so a write waits for one batch at most; then the indexes,
-- CONCURRENTLY.

ALTER TABLE asset_events ADD COLUMN IF NOT EXISTS subject_name text;

-- A new event names its subject as its row has it now, else as the Trash keeps it, else as the
-- event's data says. The row is read FOR SHARE: a rename committing meanwhile either is read
-- here or, waiting for this transaction, finds this event to rename. A writer that knows the
-- name (the scale seed) gives it.
CREATE OR REPLACE FUNCTION asset_events_name_subject() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  of_kind text;
  of_id text;
BEGIN
  -- subject_kind and subject_id are not set yet: their trigger (039) runs after this one.
  IF NEW.asset_id IS NOT NULL THEN
    of_kind := 'asset'; of_id := NEW.asset_id;
    SELECT s.name INTO NEW.subject_name FROM assets s WHERE s.id = NEW.asset_id FOR SHARE;
  ELSIF NEW.cage_mesh_id IS NOT NULL THEN
    of_kind := 'cage-mesh'; of_id := NEW.cage_mesh_id;
    SELECT s.name INTO NEW.subject_name FROM cage_meshes s WHERE s.id = NEW.cage_mesh_id FOR SHARE;
  ELSIF NEW.tag_id IS NOT NULL THEN
    of_kind := 'tag'; of_id := NEW.tag_id;
    SELECT s.name INTO NEW.subject_name FROM tags s WHERE s.id = NEW.tag_id FOR SHARE;
  ELSIF NEW.application_id IS NOT NULL THEN
    of_kind := 'application'; of_id := NEW.application_id;
    SELECT s.name INTO NEW.subject_name FROM applications s
    WHERE s.id = NEW.application_id FOR SHARE;
  ELSIF NEW.morphed_asset_id IS NOT NULL THEN
    of_kind := 'morphed-asset'; of_id := NEW.morphed_asset_id;
    SELECT s.name INTO NEW.subject_name FROM morphed_assets s
    WHERE s.id = NEW.morphed_asset_id FOR SHARE;
  ELSIF NEW.invitation_id IS NOT NULL THEN
    of_kind := 'invitation'; of_id := NEW.invitation_id;
    SELECT s.email INTO NEW.subject_name FROM invitations s
    WHERE s.id = NEW.invitation_id FOR SHARE;
  ELSIF NEW.user_id IS NOT NULL THEN
    of_kind := 'user'; of_id := NEW.user_id;
    SELECT s.email INTO NEW.subject_name FROM users s WHERE s.id = NEW.user_id FOR SHARE;
  END IF;
  IF NEW.subject_name IS NULL AND of_kind IS NOT NULL THEN
    SELECT t.name INTO NEW.subject_name FROM trash t WHERE t.kind = of_kind AND t.id = of_id;
  END IF;
  NEW.subject_name := coalesce(NEW.subject_name, NEW.data->>'name', NEW.data->>'email');
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER asset_events_name_subject BEFORE INSERT ON asset_events
  FOR EACH ROW WHEN (NEW.subject_name IS NULL) EXECUTE FUNCTION asset_events_name_subject();

-- A record renamed (or back from the Trash, perhaps under another name) renames its events.
-- The arguments: the record's kind in the log, and the column that names it.
CREATE OR REPLACE FUNCTION asset_events_follow_subject() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_name text := to_jsonb(NEW)->>TG_ARGV[1];
BEGIN
  UPDATE asset_events SET subject_name = new_name
  WHERE subject_id = NEW.id AND subject_kind = TG_ARGV[0]
    AND subject_name IS DISTINCT FROM new_name;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER assets_event_names AFTER UPDATE OF name ON assets FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION asset_events_follow_subject('asset', 'name');
CREATE OR REPLACE TRIGGER assets_event_names_insert AFTER INSERT ON assets FOR EACH ROW
  EXECUTE FUNCTION asset_events_follow_subject('asset', 'name');
CREATE OR REPLACE TRIGGER cage_meshes_event_names AFTER UPDATE OF name ON cage_meshes
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION asset_events_follow_subject('cage-mesh', 'name');
CREATE OR REPLACE TRIGGER cage_meshes_event_names_insert AFTER INSERT ON cage_meshes
  FOR EACH ROW EXECUTE FUNCTION asset_events_follow_subject('cage-mesh', 'name');
CREATE OR REPLACE TRIGGER tags_event_names AFTER UPDATE OF name ON tags FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION asset_events_follow_subject('tag', 'name');
CREATE OR REPLACE TRIGGER tags_event_names_insert AFTER INSERT ON tags FOR EACH ROW
  EXECUTE FUNCTION asset_events_follow_subject('tag', 'name');
CREATE OR REPLACE TRIGGER applications_event_names AFTER UPDATE OF name ON applications
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION asset_events_follow_subject('application', 'name');
CREATE OR REPLACE TRIGGER applications_event_names_insert AFTER INSERT ON applications
  FOR EACH ROW EXECUTE FUNCTION asset_events_follow_subject('application', 'name');
CREATE OR REPLACE TRIGGER morphed_assets_event_names AFTER UPDATE OF name ON morphed_assets
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION asset_events_follow_subject('morphed-asset', 'name');
CREATE OR REPLACE TRIGGER morphed_assets_event_names_insert AFTER INSERT ON morphed_assets
  FOR EACH ROW EXECUTE FUNCTION asset_events_follow_subject('morphed-asset', 'name');
CREATE OR REPLACE TRIGGER users_event_names AFTER UPDATE OF email ON users FOR EACH ROW
  WHEN (OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION asset_events_follow_subject('user', 'email');
CREATE OR REPLACE TRIGGER invitations_event_names AFTER UPDATE OF email ON invitations
  FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION asset_events_follow_subject('invitation', 'email');

-- The events written before this migration, by ranges of seq, oldest first. A batch skips the
-- rows a trigger named meanwhile (a rename that committed while the batch read the old name
-- makes the batch find its rows named, so it leaves them). On PGlite the migration is one
-- transaction (server/migrate.ts), whose statements above already wrote: it cannot commit here.
DO $$
DECLARE
  one_transaction boolean := txid_current_if_assigned() IS NOT NULL;
  done bigint := 0;
  last bigint;
BEGIN
  SELECT coalesce(max(seq), 0) INTO last FROM asset_events;
  WHILE done < last LOOP
    UPDATE asset_events e SET subject_name = n.name
    FROM (
      SELECT x.seq, coalesce(a.name, cm.name, t.name, ap.name, ma.name, su.email, inv.email,
        tr.name, x.data->>'name', x.data->>'email') AS name
      FROM asset_events x
        LEFT JOIN assets a ON a.id = x.asset_id
        LEFT JOIN cage_meshes cm ON cm.id = x.cage_mesh_id
        LEFT JOIN tags t ON t.id = x.tag_id
        LEFT JOIN applications ap ON ap.id = x.application_id
        LEFT JOIN users su ON su.id = x.user_id
        LEFT JOIN morphed_assets ma ON ma.id = x.morphed_asset_id
        LEFT JOIN invitations inv ON inv.id = x.invitation_id
        LEFT JOIN trash tr ON tr.kind = x.subject_kind AND tr.id = x.subject_id
      WHERE x.seq > done AND x.seq <= done + 2000 AND x.subject_name IS NULL
    ) n
    WHERE e.seq = n.seq AND e.subject_name IS NULL AND n.name IS NOT NULL;
    done := done + 2000;
    IF NOT one_transaction THEN
      COMMIT;
    END IF;
  END LOOP;
END $$;

-- The search (a substring of the name, as every list's search) and a user's page (`involves`:
-- the assets given to or taken from them name them in the data), which with the actor and
-- subject indexes the planner reads as one bitmap instead of reading every event. Not partial:
-- with a partial one (the rows that name a user) the planner guessed thousands of matches at a
-- million events and read them all newest first; this one's statistics say how few there are.
CREATE INDEX CONCURRENTLY asset_events_subject_name_trgm_idx
  ON asset_events USING gin (subject_name gin_trgm_ops);
CREATE INDEX CONCURRENTLY asset_events_user_data_idx ON asset_events ((data->>'userId'));
