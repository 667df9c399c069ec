-- The first answer to a signed-in POST sent with an Idempotency-Key, so that the same request
-- sent again (a retry after a lost answer) is answered with it instead of being applied twice.
-- status is NULL while the first request is being served. Rows older than a day no longer
-- count and are deleted by the housekeeping (server/maintenance.ts).
CREATE TABLE idempotency_keys (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  headers jsonb,
  body text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, key)
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
