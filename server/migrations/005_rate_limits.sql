-- Password failures are one of several limited attempts now (wrong codes, mail sent, anonymous
-- sign-ups): the table keeps every limited attempt, keyed by what it limits.
ALTER TABLE auth_failures RENAME TO rate_limit_events;
ALTER INDEX auth_failures_key_idx RENAME TO rate_limit_events_key_idx;
