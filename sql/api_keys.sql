-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- api_keys.count
SELECT count(*)::int AS n FROM api_keys WHERE company_id = $1;

-- api_keys.find
SELECT k.company_id AS "companyId", k.id, k.name, k.key_prefix AS "keyPrefix", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.replaced_by AS "replacedBy", k.replaced_at AS "replacedAt", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt" FROM api_keys k WHERE k.company_id = $1 AND k.id = $2;

-- api_keys.find_by_hash
-- across companies: the key names its company: the lookup comes before the company is known
SELECT k.company_id AS "companyId", k.id, k.name, k.key_prefix AS "keyPrefix", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.replaced_by AS "replacedBy", k.replaced_at AS "replacedAt", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt", c.name AS "companyName", c.time_zone AS "timeZone" FROM api_keys k JOIN companies c ON c.id = k.company_id WHERE k.key_hash = $1;

-- api_keys.find_for_update
SELECT k.company_id AS "companyId", k.id, k.name, k.key_prefix AS "keyPrefix", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.replaced_by AS "replacedBy", k.replaced_at AS "replacedAt", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt" FROM api_keys k WHERE k.company_id = $1 AND k.id = $2 FOR UPDATE;

-- api_keys.issue
INSERT INTO api_keys AS k (company_id, id, name, key_hash, key_prefix, expires_at)
VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6))
RETURNING k.company_id AS "companyId", k.id, k.name, k.key_prefix AS "keyPrefix", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.replaced_by AS "replacedBy", k.replaced_at AS "replacedAt", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt";

-- api_keys.mark_replaced
WITH k AS (UPDATE api_keys k SET replaced_by = $3, replaced_at = now(), expires_at = LEAST(k.expires_at, $4)
 WHERE k.company_id = $1 AND k.id = $2 RETURNING k.*)
SELECT k.company_id AS "companyId", k.id, k.name, k.key_prefix AS "keyPrefix", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.replaced_by AS "replacedBy", k.replaced_at AS "replacedAt", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt" FROM k;

-- api_keys.page
SELECT k.company_id AS "companyId", k.id, k.name, k.key_prefix AS "keyPrefix", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.replaced_by AS "replacedBy", k.replaced_at AS "replacedAt", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt", count(*) OVER () AS total FROM api_keys k
WHERE k.company_id = $1 ORDER BY k.created_at, k.id LIMIT $2 OFFSET $3;

-- api_keys.record_use
UPDATE api_keys SET last_used_at = now()
WHERE company_id = $1 AND id = $2 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute');

-- api_keys.revoke
WITH k AS (UPDATE api_keys k SET revoked_at = coalesce(k.revoked_at, now()) WHERE k.company_id = $1 AND k.id = $2 RETURNING k.*)
SELECT k.company_id AS "companyId", k.id, k.name, k.key_prefix AS "keyPrefix", k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.replaced_by AS "replacedBy", k.replaced_at AS "replacedAt", k.created_at AS "createdAt", k.last_used_at AS "lastUsedAt" FROM k;

