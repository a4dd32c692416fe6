-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- oauth.application_page
SELECT a.company_id AS "companyId", a.id, a.name, a.client_id AS "clientId", a.client_secret_hash AS "clientSecretHash", a.redirect_uris AS "redirectUris", a.revoked_at AS "revokedAt", a.created_at AS "createdAt", count(*) OVER () AS total FROM oauth_applications a
WHERE a.company_id = $1 ORDER BY a.created_at, a.id LIMIT $2 OFFSET $3;

-- oauth.find_application
SELECT a.company_id AS "companyId", a.id, a.name, a.client_id AS "clientId", a.client_secret_hash AS "clientSecretHash", a.redirect_uris AS "redirectUris", a.revoked_at AS "revokedAt", a.created_at AS "createdAt" FROM oauth_applications a WHERE a.company_id = $1 AND a.id = $2;

-- oauth.find_application_by_client_id
-- across companies: the client id names its company: the lookup comes before the company is known
SELECT a.company_id AS "companyId", a.id, a.name, a.client_id AS "clientId", a.client_secret_hash AS "clientSecretHash", a.redirect_uris AS "redirectUris", a.revoked_at AS "revokedAt", a.created_at AS "createdAt", c.name AS "companyName" FROM oauth_applications a JOIN companies c ON c.id = a.company_id WHERE a.client_id = $1;

-- oauth.find_by_access_token
-- across companies: the access token names its company: the lookup comes before the company is known
SELECT t.company_id AS "companyId", t.id, t.application_id AS "applicationId", t.user_id AS "userId", t.grant_id AS "grantId", t.access_token_expires_at AS "accessTokenExpiresAt", t.refresh_token_expires_at AS "refreshTokenExpiresAt", t.refresh_used_at AS "refreshUsedAt", t.scope, t.revoked_at AS "revokedAt", a.revoked_at AS "applicationRevokedAt", c.name AS "companyName", c.time_zone AS "timeZone"
 FROM oauth_tokens t
 JOIN oauth_applications a ON a.company_id = t.company_id AND a.id = t.application_id
 JOIN companies c ON c.id = t.company_id
WHERE t.access_token_hash = $1;

-- oauth.find_by_refresh_token
-- across companies: the refresh token names its company: the lookup comes before the company is known
SELECT t.company_id AS "companyId", t.id, t.application_id AS "applicationId", t.user_id AS "userId", t.grant_id AS "grantId", t.access_token_expires_at AS "accessTokenExpiresAt", t.refresh_token_expires_at AS "refreshTokenExpiresAt", t.refresh_used_at AS "refreshUsedAt", t.scope, t.revoked_at AS "revokedAt" FROM oauth_tokens t WHERE t.refresh_token_hash = $1;

-- oauth.find_code
-- across companies: the code names its company: the exchange comes before the company is known
SELECT company_id AS "companyId", id, application_id AS "applicationId", user_id AS "userId", redirect_uri AS "redirectUri", scope,
     code_challenge AS "codeChallenge", code_challenge_method AS "codeChallengeMethod", expires_at AS "expiresAt", used_at AS "usedAt"
FROM oauth_authorization_codes WHERE code_hash = $1;

-- oauth.find_user_by_email
-- across companies: an e-mail address names its company: the login comes before the company is known
SELECT company_id AS "companyId", id, password_hash AS "passwordHash" FROM users WHERE lower(email) = lower($1);

-- oauth.insert_application
INSERT INTO oauth_applications AS a (company_id, id, name, client_id, client_secret_hash, redirect_uris)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING a.company_id AS "companyId", a.id, a.name, a.client_id AS "clientId", a.client_secret_hash AS "clientSecretHash", a.redirect_uris AS "redirectUris", a.revoked_at AS "revokedAt", a.created_at AS "createdAt";

-- oauth.insert_code
INSERT INTO oauth_authorization_codes
  (company_id, id, application_id, user_id, code_hash, redirect_uri, scope, code_challenge, code_challenge_method, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- oauth.insert_token
INSERT INTO oauth_tokens (company_id, id, application_id, user_id, grant_id, access_token_hash, access_token_expires_at,
  refresh_token_hash, refresh_token_expires_at, scope)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- oauth.replace_application_secret
UPDATE oauth_applications SET client_secret_hash = $3 WHERE company_id = $1 AND id = $2 AND revoked_at IS NULL;

-- oauth.revoke_application
UPDATE oauth_applications SET revoked_at = coalesce(revoked_at, now()) WHERE company_id = $1 AND id = $2;

-- oauth.revoke_application_tokens
UPDATE oauth_tokens SET revoked_at = now() WHERE company_id = $1 AND application_id = $2 AND revoked_at IS NULL;

-- oauth.revoke_grant
UPDATE oauth_tokens SET revoked_at = now() WHERE company_id = $1 AND grant_id = $2 AND revoked_at IS NULL;

-- oauth.spend_refresh_token
UPDATE oauth_tokens SET refresh_used_at = now() WHERE company_id = $1 AND id = $2 AND refresh_used_at IS NULL AND revoked_at IS NULL;

-- oauth.use_code
UPDATE oauth_authorization_codes SET used_at = now() WHERE company_id = $1 AND id = $2 AND used_at IS NULL;

