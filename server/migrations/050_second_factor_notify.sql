-- The state of a session that every request checks (server/auth/session-check.ts) carries
-- whether its account has a second factor: a token whose admin powers rest on one
-- (REQUIRE_ADMIN_2FA) is refused once it is turned off or reset. Turning it on or off therefore
-- notifies `auth_sessions` in the same transaction, as a role change does, so that every server
-- of this database drops the states it cached ('u:<user id>').
CREATE OR REPLACE FUNCTION auth_sessions_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('auth_sessions', 's:' || OLD.id);
  ELSIF TG_TABLE_NAME = 'user_totp' THEN
    PERFORM pg_notify('auth_sessions', 'u:' || OLD.user_id);
  ELSE
    PERFORM pg_notify('auth_sessions', 'u:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER user_totp_notify AFTER UPDATE OF enabled_at ON user_totp
  FOR EACH ROW WHEN (OLD.enabled_at IS DISTINCT FROM NEW.enabled_at)
  EXECUTE FUNCTION auth_sessions_notify();
-- A pending enrolment (never enabled) going changes no session's state.
CREATE TRIGGER user_totp_notify_delete AFTER DELETE ON user_totp
  FOR EACH ROW WHEN (OLD.enabled_at IS NOT NULL) EXECUTE FUNCTION auth_sessions_notify();
