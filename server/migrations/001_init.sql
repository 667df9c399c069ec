-- Users, sessions, one-time codes and assets. Every timestamp is written by the application
-- (never now()) so tests can drive time with an injected clock.

CREATE TABLE users (
  id text PRIMARY KEY,
  -- Stored lower-cased; NULL for anonymous users.
  email text,
  password_hash text,
  role text NOT NULL CHECK (role IN ('admin', 'developer', 'user', 'anonymous')),
  verified_at timestamptz,
  password_updated boolean NOT NULL DEFAULT false,
  assets text[] NOT NULL DEFAULT '{}',
  wallets text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- One row per issued refresh token; all rotations of one login share a family and its
-- absolute expiry. Only the SHA-256 of the token is stored.
CREATE TABLE refresh_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  family_id text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  replaced_by text,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

-- Six-digit codes mailed for passwordless login, e-mail verification and password reset.
-- user_id is NULL for codes "sent" to unknown addresses: they are recorded (never mailed) so
-- the rate limit behaves the same whether or not an account exists.
CREATE TABLE one_time_codes (
  id text PRIMARY KEY,
  email text NOT NULL,
  user_id text REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('login', 'verify', 'reset')),
  code_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL
);
CREATE INDEX one_time_codes_rate_idx ON one_time_codes (email, purpose, created_at);

-- Failed attempts of password checks, counted in a sliding window (brute-force guard).
CREATE TABLE auth_failures (
  id bigserial PRIMARY KEY,
  key text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX auth_failures_key_idx ON auth_failures (key, created_at);

CREATE TABLE assets (
  id text PRIMARY KEY,
  name text NOT NULL,
  type text NOT NULL,
  gender text NOT NULL CHECK (gender IN ('male', 'female', 'unisex')),
  icon_url text,
  model_url text,
  locked boolean NOT NULL DEFAULT false,
  position integer NOT NULL DEFAULT 0,
  application_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX assets_type_idx ON assets (type);
CREATE INDEX assets_gender_idx ON assets (gender);

-- Small key/value facts about this database, e.g. when the demo data was seeded.
CREATE TABLE app_meta (
  key text PRIMARY KEY,
  value text NOT NULL
);
