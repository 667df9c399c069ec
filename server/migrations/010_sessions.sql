-- Sessions: one row per refresh-token family (one sign-in), named by the `sid` claim of every
-- access token issued in it. Each authenticated request checks that its session is live (not
-- revoked, not expired) and that the user's role and status still match the token
-- (server/auth/session-check.ts), through a per-server cache that the `auth_sessions`
-- notifications below invalidate, on every server of this database.
CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL,
  -- Updated at each refresh, not at each request.
  last_used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  -- As seen at sign-in (after TRUST_PROXY), for the owner's list of sessions.
  client_address text,
  user_agent text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- The families signed in before this migration become sessions (without client details).
INSERT INTO sessions (id, user_id, started_at, last_used_at, expires_at, revoked_at)
SELECT family_id, min(user_id), min(created_at), max(created_at), max(expires_at),
       CASE WHEN bool_and(revoked_at IS NOT NULL) THEN max(revoked_at) END
FROM refresh_tokens GROUP BY family_id;

ALTER TABLE refresh_tokens
  ADD CONSTRAINT refresh_tokens_family_fkey FOREIGN KEY (family_id) REFERENCES sessions (id)
  ON DELETE CASCADE;

-- A disabled user can neither sign in nor use a session (the admin UI comes later).
ALTER TABLE users ADD COLUMN disabled_at timestamptz;

-- Whatever ends a session or changes what its tokens may do notifies `auth_sessions` in the
-- same transaction (NOTIFY is delivered at commit): 's:<session id>' or 'u:<user id>'.
CREATE FUNCTION auth_sessions_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('auth_sessions', 's:' || OLD.id);
  ELSE
    PERFORM pg_notify('auth_sessions', 'u:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER sessions_notify AFTER UPDATE OF revoked_at, expires_at, user_id ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
    OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION auth_sessions_notify();
CREATE TRIGGER sessions_notify_delete AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION auth_sessions_notify();
CREATE TRIGGER users_notify AFTER UPDATE OF role, disabled_at ON users
  FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role
    OR OLD.disabled_at IS DISTINCT FROM NEW.disabled_at)
  EXECUTE FUNCTION auth_sessions_notify();
