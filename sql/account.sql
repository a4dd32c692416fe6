-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- account.delete_invitation
DELETE FROM invitations WHERE company_id = $1 AND id = $2;

-- account.delete_invitations_sent_by
DELETE FROM invitations WHERE company_id = $1 AND invited_by = $2 AND used_at IS NULL;

-- account.delete_user
DELETE FROM users WHERE company_id = $1 AND id = $2;

-- account.delete_user_oauth_codes
DELETE FROM oauth_authorization_codes WHERE company_id = $1 AND user_id = $2;

-- account.delete_user_oauth_tokens
DELETE FROM oauth_tokens WHERE company_id = $1 AND user_id = $2;

-- account.end_user_sessions
DELETE FROM web_sessions WHERE sess->>'companyId' = $1::text AND sess->>'userId' = $2::text;

-- account.insert_invitation
INSERT INTO invitations (company_id, id, email, role, locale, invited_by, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8);

-- account.invitation_by_link
-- across companies: an invitation link names its company: it is opened before the invitee has an account
SELECT i.company_id AS "companyId", i.id, i.email, i.role, i.locale, c.name AS "companyName"
 FROM invitations i JOIN companies c ON c.id = i.company_id
WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now();

-- account.invitation_user
UPDATE invitations SET user_id = $3 WHERE company_id = $1 AND id = $2;

-- account.member_by_email
SELECT id FROM users WHERE company_id = $1 AND lower(email) = lower($2);

-- account.new_user_locale
UPDATE users SET locale = $3 WHERE company_id = $1 AND id = $2;

-- account.open_invitations
SELECT i.id, i.email, i.role, i.created_at AS "createdAt", i.expires_at AS "expiresAt", u.email AS "invitedBy"
 FROM invitations i LEFT JOIN users u ON u.company_id = i.company_id AND u.id = i.invited_by
WHERE i.company_id = $1 AND i.used_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
ORDER BY i.created_at DESC;

-- account.reset_find_open
-- across companies: a reset link names its company: it is opened before anyone signed in
SELECT r.company_id AS "companyId", r.user_id AS "userId", u.email
 FROM password_resets r JOIN users u ON u.company_id = r.company_id AND u.id = r.user_id
WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now();

-- account.reset_find_user
-- across companies: a reset is asked for by e-mail address, before the company is known
SELECT u.company_id AS "companyId", u.id AS "userId", u.email, u.locale, c.name AS "companyName", c.time_zone AS "timeZone"
 FROM users u JOIN companies c ON c.id = u.company_id
WHERE lower(u.email) = lower($1) ORDER BY u.created_at LIMIT 1;

-- account.reset_insert
INSERT INTO password_resets (company_id, id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5);

-- account.reset_prune
-- across companies: housekeeping: links a day past their expiry are worth nothing to anyone
DELETE FROM password_resets WHERE expires_at < now() - interval '1 day';

-- account.reset_spend
-- across companies: a reset link names its company: it is used before anyone signed in
UPDATE password_resets SET used_at = now()
WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
RETURNING company_id AS "companyId", user_id AS "userId";

-- account.reset_spend_others
UPDATE password_resets SET used_at = now() WHERE company_id = $1 AND user_id = $2 AND used_at IS NULL;

-- account.revoke_invitation
UPDATE invitations SET revoked_at = now() WHERE company_id = $1 AND id = $2 AND used_at IS NULL AND revoked_at IS NULL;

-- account.revoke_invitation_by_email
UPDATE invitations SET revoked_at = now() WHERE company_id = $1 AND lower(email) = lower($2) AND used_at IS NULL AND revoked_at IS NULL;

-- account.set_password
UPDATE users SET password_hash = $3 WHERE company_id = $1 AND id = $2;

-- account.set_user_role
UPDATE users SET role = $3 WHERE company_id = $1 AND id = $2;

-- account.spend_invitation
-- across companies: an invitation link names its company: it is used before the invitee has an account
UPDATE invitations SET used_at = now()
WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
RETURNING company_id AS "companyId", id, email, role, locale, ''::text AS "companyName";

-- account.team_members
SELECT id, email, role, created_at AS "createdAt" FROM users WHERE company_id = $1 ORDER BY created_at, email;

-- account.team_roles_locked
SELECT id, email, role FROM users WHERE company_id = $1 ORDER BY id FOR UPDATE;

