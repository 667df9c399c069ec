-- A code asked for again past the issuing limit of its address is mailed again, at most once a
-- minute (server/auth/one-time-codes.ts): when it was last mailed, NULL for when it was made.
ALTER TABLE one_time_codes ADD COLUMN sent_at timestamptz;
