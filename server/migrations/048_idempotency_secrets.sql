-- The answers kept for Idempotency-Key replays could hold secrets (an authenticator's secret,
-- recovery codes), and their request hashes were unsalted SHA-256 of bodies that could hold a
-- password. From this version the server keeps nothing of a route that carries a secret and
-- keys the request's fingerprint with an HMAC of the server secret (server/http/idempotency.ts).
-- Every row written before is deleted, so no backup taken from now on holds one: a retry of a
-- request sent before the upgrade is carried out again (a retry comes within seconds of its
-- request, and a row lived a day).
DELETE FROM idempotency_keys;

-- A user keeps at most a bounded number of keys; the oldest is let go first.
CREATE INDEX idempotency_keys_user_created ON idempotency_keys (user_id, created_at, key);
