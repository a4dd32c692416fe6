-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- auth.find_active_token
-- across companies: the token names its company: the lookup comes before the company is known
SELECT t.id, c.id AS company_id, c.name, c.time_zone
 FROM api_tokens t JOIN companies c ON c.id = t.company_id
WHERE t.token_hash = $1 AND t.revoked_at IS NULL;

-- auth.insert_api_key
INSERT INTO api_keys (company_id, id, name, key_hash, key_prefix, expires_at) VALUES ($1, $2, $3, $4, $5, $6);

-- auth.insert_token
INSERT INTO api_tokens (company_id, id, name, token_hash) VALUES ($1, $2, $3, $4);

