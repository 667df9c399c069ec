-- Invitations and the account page.

-- An administrator invites an address with a role; the mail carries a link with a random token
-- (only its SHA-256 is kept) that sets a password once, within `expires_at`. One invitation is
-- pending per address at a time: inviting again is a resend. Accepted and revoked rows stay
-- as the record of who invited whom.
CREATE TABLE invitations (
  id text PRIMARY KEY,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'developer', 'user')),
  token_hash text NOT NULL UNIQUE,
  invited_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  -- When the current link was mailed (a resend mails a new one and moves expires_at).
  sent_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_user_id text REFERENCES users (id) ON DELETE SET NULL,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX invitations_pending_email_idx ON invitations (lower(email))
  WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- A change of e-mail address counts once a code mailed to the new address comes back
-- (server/routes/account.ts): such codes have the purpose 'email' and the new address.
ALTER TABLE one_time_codes DROP CONSTRAINT one_time_codes_purpose_check;
ALTER TABLE one_time_codes ADD CONSTRAINT one_time_codes_purpose_check
  CHECK (purpose IN ('login', 'verify', 'reset', 'email'));
