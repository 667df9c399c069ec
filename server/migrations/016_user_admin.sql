-- User administration (server/user-admin.ts): when each user last signed in (a new session,
-- not a token refresh), for the back office's list to show and sort by. Sessions already
-- started count from their first sign-in.
ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz;
UPDATE users u SET last_sign_in_at = s.started_at
FROM (SELECT user_id, max(started_at) AS started_at FROM sessions GROUP BY user_id) s
WHERE s.user_id = u.id;
CREATE INDEX users_last_sign_in_idx ON users (last_sign_in_at, id);
CREATE INDEX users_created_idx ON users (created_at, id);
