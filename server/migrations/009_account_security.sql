-- Account security.

-- When the current password was set: a proof of the address keeps it only when made from a
-- session signed in with that password since then (docs/api.md "Sessions").
ALTER TABLE users ADD COLUMN password_set_at timestamptz;
UPDATE users SET password_set_at = created_at WHERE password_hash IS NOT NULL;

-- Each code has two budgets of wrong guesses: one for the client address that asked for it
-- (`client`), one for every other client, so a stranger's guesses cannot spend the owner's.
ALTER TABLE one_time_codes RENAME COLUMN attempts TO own_failures;
ALTER TABLE one_time_codes ADD COLUMN foreign_failures integer NOT NULL DEFAULT 0;
ALTER TABLE one_time_codes ADD COLUMN client text NOT NULL DEFAULT '';

-- Outgoing mail, sent after the request that wrote it has answered, by a worker in every
-- server process: rows are claimed with a lease, retried with back-off, deleted once sent.
CREATE TABLE mail_outbox (
  id bigserial PRIMARY KEY,
  message jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  available_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX mail_outbox_available_idx ON mail_outbox (available_at, id);
