-- migrate: no-transaction
-- No transaction, for the CONCURRENTLY builds; each step is one statement of its own.
-- The invitations list (GET /private/v1/invitations, server/invitations.ts invitationListSpec)
-- pages the pending invitations in each of its orders, the id breaking ties: without these a
-- page sorted every pending invitation. The role order is by role, then sent time, so a role
-- filter in the default order reads one range too. The search is a substring of the address.
CREATE INDEX CONCURRENTLY IF NOT EXISTS invitations_pending_sent_idx ON invitations (sent_at, id)
  WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS invitations_pending_expires_idx
  ON invitations (expires_at, id) WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS invitations_pending_email_order_idx
  ON invitations (email, id) WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS invitations_pending_role_idx
  ON invitations (role, sent_at, id) WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS invitations_pending_email_trgm_idx
  ON invitations USING gin (email gin_trgm_ops) WHERE accepted_at IS NULL AND revoked_at IS NULL;
