-- The event log's `subject_kind` and `subject_id` (the activity log's filters and links) become
-- plain columns that a trigger fills, instead of generated ones: a generated column's
-- expression cannot change without rewriting every event under a lock that stops the app's
-- writes, so a new kind of subject (the bulk job, 037) would cost that at each addition. Turning
-- a generated column into a plain one keeps its values and writes no row, so the indexes on
-- them stay as they are.
--
-- This serves both kinds of installation after 037: those where 037 rebuilt the generated
-- columns with the bulk job, and those where it left them without it (no bulk job's event was
-- written then: only this version writes them, once its migrations are done). It is one short
-- transaction: a moment's exclusive lock on the event log, no row read or written.

-- As the generated columns computed them; the subject kinds are the Trash's (server/trash.ts)
-- and the bulk job.
CREATE OR REPLACE FUNCTION asset_events_subject() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.subject_kind := CASE
    WHEN NEW.asset_id IS NOT NULL THEN 'asset'
    WHEN NEW.cage_mesh_id IS NOT NULL THEN 'cage-mesh'
    WHEN NEW.tag_id IS NOT NULL THEN 'tag'
    WHEN NEW.application_id IS NOT NULL THEN 'application'
    WHEN NEW.morphed_asset_id IS NOT NULL THEN 'morphed-asset'
    WHEN NEW.invitation_id IS NOT NULL THEN 'invitation'
    WHEN NEW.bulk_job_id IS NOT NULL THEN 'bulk-job'
    ELSE 'user' END;
  NEW.subject_id := coalesce(NEW.asset_id, NEW.cage_mesh_id, NEW.tag_id, NEW.application_id,
    NEW.user_id, NEW.morphed_asset_id, NEW.invitation_id, NEW.bulk_job_id);
  RETURN NEW;
END $$;

-- The columns and their trigger change together, so no event is written between them without
-- its subject. BEFORE triggers run in name
-- order: this one runs after asset_events_name_subject (036), as the generated columns were
-- computed after it. A writer's own subject_kind or subject_id is overwritten, as a generated
-- column refused it.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'asset_events'::regclass
      AND attname IN ('subject_kind', 'subject_id') AND attgenerated <> '') THEN
    ALTER TABLE asset_events
      ALTER COLUMN subject_kind DROP EXPRESSION,
      ALTER COLUMN subject_id DROP EXPRESSION;
  END IF;
  CREATE OR REPLACE TRIGGER asset_events_subject
    BEFORE INSERT OR UPDATE OF asset_id, cage_mesh_id, tag_id, application_id, user_id,
      morphed_asset_id, invitation_id, bulk_job_id, subject_kind, subject_id
    ON asset_events FOR EACH ROW EXECUTE FUNCTION asset_events_subject();
END $$;
