-- Passkeys (WebAuthn, server/auth/passkeys.ts): a second factor, and a sign-in without a password.
-- An account holds several, each named by its owner; the public key and the signature counter are
-- what a sign-in is checked against. An admin's reset of a user's second factor deletes them.
CREATE TABLE passkeys (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The authenticator's credential id (base64url), unique across the whole server.
  credential_id text NOT NULL UNIQUE,
  -- The COSE public key, base64url.
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text[] NOT NULL DEFAULT '{}',
  name text NOT NULL,
  -- Synced by its provider to the owner's other devices (a multi-device credential).
  backed_up boolean NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id, created_at);

-- The sign-in and registration ceremonies already answered: each is a signed, short-lived
-- challenge that nothing stores until it is used, so asking for one costs no write, and this
-- table refuses it a second time. Rows past their expiry are deleted by the housekeeping.
CREATE TABLE passkey_ceremonies_used (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX passkey_ceremonies_used_expires ON passkey_ceremonies_used (expires_at);

-- Adding the first passkey or removing the last changes whether the account has a second factor,
-- which every session's state carries (migration 050): the servers drop what they cached.
CREATE FUNCTION passkeys_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('auth_sessions', 'u:' || NEW.user_id);
  ELSE
    PERFORM pg_notify('auth_sessions', 'u:' || OLD.user_id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER passkeys_notify AFTER INSERT OR DELETE ON passkeys
  FOR EACH ROW EXECUTE FUNCTION passkeys_notify();
