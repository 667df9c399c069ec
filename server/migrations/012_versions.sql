-- Record versions (docs/api.md "Versions and conflicts"): every editable record carries a version,
-- 1 when created, raised by one at each change. A change based on an older version (If-Match)
-- asks record_changes which fields changed since that version, so two edits of different
-- fields are both kept and only an edit of a field someone else changed is refused.
--
-- The versions are raised by triggers, not by the routes, so no write path can forget one:
-- PATCH routes, lock/unlock, tagging (asset_tags), bulk routes, position renumbering, sync,
-- role changes, tag renames. An UPDATE takes the row lock, so two changes of one record raise
-- its version one after the other; a route that checks a base version takes the row lock
-- (SELECT ... FOR UPDATE) before reading the current version, so conditional saves serialise.
ALTER TABLE assets ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE cage_meshes ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE tags ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE applications ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE application_assets ADD COLUMN version integer NOT NULL DEFAULT 1;
-- A user's version counts changes of the role only (sign-ins and passwords are no edits).
ALTER TABLE users ADD COLUMN version integer NOT NULL DEFAULT 1;

-- One row per version after the first: the columns that changed (asset_tags changes as
-- `tag_ids`), who changed them (the signed-in user of the request, set per transaction as
-- `app.actor_id`; NULL for the system) and when. record_id is not a foreign key: the history
-- of a deleted record goes with nothing and costs one small row per change.
CREATE TABLE record_changes (
  kind text NOT NULL,
  record_id text NOT NULL,
  version integer NOT NULL,
  fields text[] NOT NULL,
  actor_id text,
  changed_at timestamptz NOT NULL,
  PRIMARY KEY (kind, record_id, version)
);

CREATE FUNCTION record_change(kind text, record_id text, version integer, fields text[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO record_changes (kind, record_id, version, fields, actor_id, changed_at)
  VALUES (kind, record_id, version, fields, nullif(current_setting('app.actor_id', true), ''),
          clock_timestamp());
$$;

-- BEFORE UPDATE of a versioned table. TG_ARGV[0] is the record kind; TG_ARGV[1], when given,
-- lists the only columns that count as a change. An UPDATE that changes none of the counted
-- columns (updated_at and version never count) keeps the version. An UPDATE that raised the
-- version itself (the asset_tags trigger below) records its own change.
CREATE FUNCTION bump_record_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
BEGIN
  IF NEW.version <> OLD.version THEN
    RETURN NEW;
  END IF;
  SELECT coalesce(array_agg(n.key ORDER BY n.key), '{}') INTO changed
  FROM jsonb_each(to_jsonb(NEW)) n
  WHERE n.key NOT IN ('version', 'updated_at')
    AND (TG_NARGS < 2 OR n.key = ANY (TG_ARGV[1]::text[]))
    AND n.value IS DISTINCT FROM to_jsonb(OLD) -> n.key;
  IF cardinality(changed) > 0 THEN
    NEW.version := OLD.version + 1;
    PERFORM record_change(TG_ARGV[0], NEW.id, NEW.version, changed);
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER assets_version BEFORE UPDATE ON assets
  FOR EACH ROW EXECUTE FUNCTION bump_record_version('asset');
CREATE TRIGGER cage_meshes_version BEFORE UPDATE ON cage_meshes
  FOR EACH ROW EXECUTE FUNCTION bump_record_version('cage-mesh');
CREATE TRIGGER tags_version BEFORE UPDATE ON tags
  FOR EACH ROW EXECUTE FUNCTION bump_record_version('tag');
CREATE TRIGGER applications_version BEFORE UPDATE ON applications
  FOR EACH ROW EXECUTE FUNCTION bump_record_version('application');
CREATE TRIGGER application_assets_version BEFORE UPDATE ON application_assets
  FOR EACH ROW EXECUTE FUNCTION bump_record_version('application-asset');
CREATE TRIGGER users_version BEFORE UPDATE OF role ON users
  FOR EACH ROW EXECUTE FUNCTION bump_record_version('user', '{role}');

-- Tagging or untagging an asset is a change of the asset (its tagIds): raise its version. An
-- asset being deleted (its asset_tags go with it) is no longer there to raise.
CREATE FUNCTION bump_tagged_asset_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target text := CASE WHEN TG_OP = 'DELETE' THEN OLD.asset_id ELSE NEW.asset_id END;
  raised integer;
BEGIN
  UPDATE assets SET version = version + 1 WHERE id = target RETURNING version INTO raised;
  IF FOUND THEN
    PERFORM record_change('asset', target, raised, '{tag_ids}');
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER asset_tags_version AFTER INSERT OR DELETE ON asset_tags
  FOR EACH ROW EXECUTE FUNCTION bump_tagged_asset_version();
