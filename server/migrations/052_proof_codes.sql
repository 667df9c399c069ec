-- A change that decides who can sign in (an authenticator, the address, a first password,
-- deletion) asks an account without a password for a code mailed to its current address
-- (server/auth/fresh-proof.ts): such codes have the purpose 'proof'.
ALTER TABLE one_time_codes DROP CONSTRAINT one_time_codes_purpose_check;
ALTER TABLE one_time_codes ADD CONSTRAINT one_time_codes_purpose_check
  CHECK (purpose IN ('login', 'verify', 'reset', 'email', 'proof'));
