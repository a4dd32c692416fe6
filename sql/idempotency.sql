-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- idempotency.claim
INSERT INTO idempotency_keys (company_id, key, request_hash, claim_token) VALUES ($1, $2, $3, $4)
ON CONFLICT (company_id, key) DO UPDATE
  SET request_hash = excluded.request_hash, claim_token = excluded.claim_token, claimed_at = now(), created_at = now(),
      status_code = NULL, response_body = NULL, completed_at = NULL
  WHERE idempotency_keys.created_at < now() - make_interval(hours => $5)
     OR (idempotency_keys.status_code IS NULL AND idempotency_keys.claimed_at < now() - make_interval(secs => $6)
         AND (idempotency_keys.request_hash IS NULL OR idempotency_keys.request_hash = excluded.request_hash))
RETURNING key;

-- idempotency.complete
UPDATE idempotency_keys SET status_code = $4, response_body = $5, completed_at = now()
WHERE company_id = $1 AND key = $2 AND claim_token = $3 AND status_code IS NULL;

-- idempotency.find
SELECT request_hash, status_code, response_body FROM idempotency_keys WHERE company_id = $1 AND key = $2;

-- idempotency.release
DELETE FROM idempotency_keys WHERE company_id = $1 AND key = $2 AND claim_token = $3 AND status_code IS NULL;

-- idempotency.sweep_expired
-- across companies: the hourly sweep deletes the expired keys of every company
DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) LIMIT $2));

