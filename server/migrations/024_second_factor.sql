-- A second factor for sign-in (server/auth/second-factor.ts): a TOTP authenticator and its
-- recovery codes, and the challenges a sign-in answers while the factor is pending.

-- One authenticator per user. `totp_secret` is AES-256-GCM ciphertext under a key derived from
-- the server secret; `enabled_at` is null while the enrolment awaits its first code. `last_step`
-- is the newest 30-second step a code was accepted for: a code of that step or an older one is
-- refused, so a code seen over a shoulder or in a log cannot be used again.
CREATE TABLE user_totp (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  totp_secret text NOT NULL,
  created_at timestamptz NOT NULL,
  enabled_at timestamptz,
  last_step bigint
);

-- Single-use recovery codes, stored as an HMAC; a used one keeps its row (`used_at`).
CREATE TABLE recovery_codes (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, code_hash)
);

-- A sign-in whose first step passed and whose second factor is pending. The client holds a
-- signed token naming `id`; the row counts its wrong codes and is spent by the first right one.
CREATE TABLE second_factor_challenges (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  used_at timestamptz
);
CREATE INDEX second_factor_challenges_user_idx ON second_factor_challenges (user_id, expires_at);
