-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- push.any_due
-- across companies: the worker looks for due documents of every company; it reads no column of them
SELECT EXISTS (SELECT 1 FROM push_documents d WHERE d.status IN ('queued', 'processing', 'failed') AND d.next_attempt_at <= now()) AS due;

-- push.audit_page (variant 1 of 2)
SELECT a.id, a.document_id, d.document_type, d.external_id, a.step, a.attempt, a.error, a.details, a.credential_type, a.credential_id,
      a.request_id, a.created_at, count(*) OVER () AS total
 FROM push_audit_log a JOIN push_documents d ON d.company_id = a.company_id AND d.id = a.document_id
WHERE a.company_id = $1
ORDER BY a.id LIMIT $2 OFFSET $3;

-- push.audit_page (variant 2 of 2)
SELECT a.id, a.document_id, d.document_type, d.external_id, a.step, a.attempt, a.error, a.details, a.credential_type, a.credential_id,
      a.request_id, a.created_at, count(*) OVER () AS total
 FROM push_audit_log a JOIN push_documents d ON d.company_id = a.company_id AND d.id = a.document_id
WHERE a.company_id = $1 AND a.document_id = $2 AND a.step = $3 AND d.document_type = $4 AND lower(d.external_id) = lower($5) AND a.created_at >= $6 AND a.created_at < $7
ORDER BY a.id LIMIT $8 OFFSET $9;

-- push.claim
-- across companies: the worker claims the due documents of every company; each later step is keyed by the company_id of the claimed rows
SELECT d.company_id, d.id, d.status, d.attempts - d.attempts_before_replay AS tries, EXISTS (
SELECT 1 FROM push_documents p
 WHERE p.company_id = d.company_id AND p.document_type = d.document_type AND lower(p.external_id) = lower(d.external_id)
   AND p.version < d.version AND p.status IN ('queued', 'processing', 'failed')) AS waits
   FROM push_documents d
  WHERE d.status IN ('queued', 'processing', 'failed') AND d.next_attempt_at <= now()
  ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED;

-- push.dead_letter_lost
WITH changed AS (
   UPDATE push_documents d SET status = 'dead_lettered', dead_lettered_at = now(), updated_at = now(), last_error = $3
     FROM unnest($1::uuid[], $2::uuid[]) AS t(company_id, id)
    WHERE d.company_id = t.company_id AND d.id = t.id
    RETURNING d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload
 ), audit AS (
   INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
   SELECT c.company_id, c.id, s.step, c.attempts, c.last_error,
          CASE WHEN s.step = 'dead_lettered' THEN jsonb_build_object('reason', 'the last attempt did not finish (timed out or the process ended)') END,
          c.credential_type, c.credential_id, c.request_id
     FROM changed c CROSS JOIN (VALUES (1, 'failed'), (2, 'dead_lettered')) AS s(n, step)
    ORDER BY c.id, s.n
 )
 SELECT * FROM changed;

-- push.defer
WITH changed AS (
  UPDATE push_documents d SET deferrals = d.deferrals + 1, updated_at = now(),
         next_attempt_at = now() + least($3::float8 * power(2, d.deferrals), greatest($3::float8, 60)) * interval '1 second'
    FROM unnest($1::uuid[], $2::uuid[]) AS t(company_id, id)
   WHERE d.company_id = t.company_id AND d.id = t.id
   RETURNING d.company_id, d.id, d.deferrals, d.credential_type, d.credential_id, d.request_id
)
INSERT INTO push_audit_log (company_id, document_id, step, details, credential_type, credential_id, request_id)
SELECT c.company_id, c.id, 'deferred', jsonb_build_object('reason', 'an earlier version of this external_id is not processed yet'),
       c.credential_type, c.credential_id, c.request_id
  FROM changed c WHERE c.deferrals = 1;

-- push.discard
WITH changed AS (
   UPDATE push_documents d SET status = 'discarded', discard_reason = $3, updated_at = now()
    WHERE d.company_id = $1 AND d.id = $2 AND d.status = 'dead_lettered' RETURNING d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload - 'pdf' AS payload,
(SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes
 ), audit AS (INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
 SELECT c.company_id, c.id, 'discarded', c.attempts, NULL, jsonb_build_object('reason', $3::text), $4::text, $5::uuid, $6::text FROM changed c)
 SELECT * FROM changed;

-- push.find
SELECT d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload - 'pdf' AS payload,
(SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes FROM push_documents d WHERE d.company_id = $1 AND d.id = $2;

-- push.ledger_entry_by_external_id
SELECT id, invoice_id, amount::text AS amount, payment_date::text AS payment_date, note, inkasso_payment, source
FROM payments WHERE company_id = $1 AND lower(external_id) = lower($2);

-- push.ledger_lookup
SELECT t.n, i.id AS found_invoice_id,
     p.id, p.invoice_id, p.amount::text AS amount, p.payment_date::text AS payment_date, p.note, p.inkasso_payment, p.source
FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS t(company_id, invoice_external_id, entry_external_id, n)
LEFT JOIN invoices i ON i.company_id = t.company_id AND lower(i.external_id) = lower(t.invoice_external_id)
LEFT JOIN payments p ON p.company_id = t.company_id AND lower(p.external_id) = lower(t.entry_external_id);

-- push.lock_external_id
SELECT pg_advisory_xact_lock(hashtextextended($1 || lower($2), 0));

-- push.lock_for_effect
SELECT d.id, d.status = 'processing' AND d.lease_token = $3 AS ours, EXISTS (
      SELECT 1 FROM push_documents l
       WHERE l.company_id = d.company_id AND l.document_type = d.document_type AND lower(l.external_id) = lower(d.external_id)
         AND l.version > d.version AND l.status = 'processed') AS superseded
 FROM push_documents d JOIN unnest($1::uuid[], $2::uuid[]) AS t(company_id, id) ON d.company_id = t.company_id AND d.id = t.id
ORDER BY d.company_id, d.id
  FOR UPDATE OF d;

-- push.mark_failed
WITH changed AS (
  UPDATE push_documents d SET status = CASE WHEN t.final THEN 'dead_lettered' ELSE 'failed' END, last_error = t.error,
         dead_lettered_at = CASE WHEN t.final THEN now() ELSE d.dead_lettered_at END, updated_at = now(),
         next_attempt_at = now() + $6::float8 * power(2, greatest(d.attempts - d.attempts_before_replay - 1, 0)) * (1 + random()) * interval '1 second'
    FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::bool[], $5::text[]) AS t(company_id, id, error, final, reason)
   WHERE d.company_id = t.company_id AND d.id = t.id AND d.status = 'processing' AND d.lease_token = $7
   RETURNING d.company_id, d.id, d.status, d.attempts, d.last_error, d.credential_type, d.credential_id, d.request_id, t.reason
)
INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
SELECT c.company_id, c.id, s.step, c.attempts, c.last_error,
       CASE WHEN s.step = 'dead_lettered' THEN jsonb_build_object('reason', c.reason) END,
       c.credential_type, c.credential_id, c.request_id
  FROM changed c CROSS JOIN (VALUES (1, 'failed'), (2, 'dead_lettered')) AS s(n, step)
 WHERE s.step = 'failed' OR c.status = 'dead_lettered'
 ORDER BY c.id, s.n;

-- push.mark_processed
WITH changed AS (
  UPDATE push_documents d SET status = 'processed', outcome = t.outcome, result_type = t.result_type,
         result_id = coalesce(t.result_id, (SELECT p.id FROM payments p WHERE p.company_id = t.company_id AND lower(p.external_id) = lower(t.entry_external_id))),
         last_error = NULL, processed_at = now(), updated_at = now()
    FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::jsonb[], $7::text[])
         AS t(company_id, id, outcome, result_type, result_id, notes, entry_external_id)
   WHERE d.company_id = t.company_id AND d.id = t.id AND d.lease_token = $8
   RETURNING d.company_id, d.id, d.document_type, d.external_id, d.version, d.attempts, d.outcome, d.result_type, d.result_id,
             d.credential_type, d.credential_id, d.request_id, t.notes
), audit AS (
  INSERT INTO push_audit_log (company_id, document_id, step, attempt, details, credential_type, credential_id, request_id)
  SELECT c.company_id, c.id, 'succeeded', c.attempts,
         jsonb_build_object('outcome', c.outcome, 'result_type', c.result_type, 'result_id', c.result_id)
           || CASE WHEN c.notes IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('notes', c.notes) END,
         c.credential_type, c.credential_id, c.request_id
    FROM changed c
)
SELECT c.id, EXISTS (SELECT 1 FROM push_documents s
                      WHERE s.company_id = c.company_id AND s.document_type = c.document_type AND lower(s.external_id) = lower(c.external_id)
                        AND s.version > c.version AND s.status = 'queued') AS waiting
  FROM changed c;

-- push.page (variant 1 of 2)
SELECT d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload - 'pdf' AS payload,
(SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes, count(*) OVER () AS total
       FROM push_documents d
      WHERE d.company_id = $1
      ORDER BY d.received_at, d.id LIMIT $2 OFFSET $3;

-- push.page (variant 2 of 2)
SELECT d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload - 'pdf' AS payload,
(SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes, count(*) OVER () AS total
       FROM push_documents d
      WHERE d.company_id = $1 AND d.status = $2 AND d.document_type = $3 AND lower(d.external_id) = lower($4)
      ORDER BY d.received_at, d.id LIMIT $5 OFFSET $6;

-- push.receive
WITH latest AS (
   SELECT l.id, l.version, l.payload_hash = $6 AS same FROM push_documents l
    WHERE l.company_id = $1 AND l.document_type = $3 AND lower(l.external_id) = lower($4)
    ORDER BY l.version DESC LIMIT 1
 ), changed AS (
   INSERT INTO push_documents AS d (company_id, id, document_type, external_id, version, payload, payload_hash, credential_type, credential_id, request_id)
   SELECT $1, $2, $3, $4, coalesce((SELECT version FROM latest), 0) + 1, $5, $6, $7, $8, $9
    WHERE NOT EXISTS (SELECT 1 FROM latest WHERE same)
   RETURNING d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload - 'pdf' AS payload,
(SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes
 ), audit AS (
   INSERT INTO push_audit_log (company_id, document_id, step, details, credential_type, credential_id, request_id)
   SELECT c.company_id, c.id, 'received', jsonb_build_object('version', c.version), c.credential_type, c.credential_id, c.request_id FROM changed c
   UNION ALL
   SELECT $1, l.id, 'received_again', NULL, $7, $8, $9 FROM latest l WHERE l.same
 )
 SELECT changed.*, true AS created FROM changed
 UNION ALL
 SELECT d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload - 'pdf' AS payload,
(SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes, false FROM push_documents d JOIN latest l ON l.same AND d.id = l.id WHERE d.company_id = $1;

-- push.receive_many
WITH input AS (
   SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::jsonb[], $6::bytea[], $7::text[], $8::uuid[], $9::text[])
            WITH ORDINALITY AS i(company_id, id, document_type, external_id, payload, payload_hash, credential_type, credential_id, request_id, n)
 ), latest AS (
   SELECT i.n, l.id, l.version, l.payload_hash = i.payload_hash AS same
     FROM input i CROSS JOIN LATERAL (
       SELECT l.id, l.version, l.payload_hash FROM push_documents l
        WHERE l.company_id = i.company_id AND l.document_type = i.document_type AND lower(l.external_id) = lower(i.external_id)
        ORDER BY l.version DESC LIMIT 1) l
 ), changed AS (
   INSERT INTO push_documents AS d (company_id, id, document_type, external_id, version, payload, payload_hash, credential_type, credential_id, request_id, received_at)
   SELECT i.company_id, i.id, i.document_type, i.external_id, coalesce(l.version, 0) + 1, i.payload, i.payload_hash, i.credential_type, i.credential_id, i.request_id, clock_timestamp()
     FROM input i LEFT JOIN latest l ON l.n = i.n
    WHERE NOT coalesce(l.same, false)
    ORDER BY i.n
   RETURNING d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload - 'pdf' AS payload,
(SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes
 ), audit AS (
   INSERT INTO push_audit_log (company_id, document_id, step, details, credential_type, credential_id, request_id)
   SELECT c.company_id, c.id, 'received', jsonb_build_object('version', c.version), c.credential_type, c.credential_id, c.request_id FROM changed c
   UNION ALL
   SELECT i.company_id, l.id, 'received_again', NULL, i.credential_type, i.credential_id, i.request_id FROM input i JOIN latest l ON l.n = i.n AND l.same
 )
 SELECT changed.*, true AS created, NULL::bigint AS n FROM changed
 UNION ALL
 SELECT d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload - 'pdf' AS payload,
(SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes, false, l.n FROM input i JOIN latest l ON l.n = i.n AND l.same JOIN push_documents d ON d.company_id = i.company_id AND d.id = l.id;

-- push.renew_lease
WITH held AS (
  SELECT d.company_id, d.id FROM push_documents d JOIN unnest($1::uuid[], $2::uuid[]) AS t(company_id, id) ON d.company_id = t.company_id AND d.id = t.id
   WHERE d.lease_token = $3
), free AS (
  SELECT d.company_id, d.id FROM push_documents d JOIN held h ON d.company_id = h.company_id AND d.id = h.id
   WHERE d.status = 'processing' AND d.lease_token = $3
     FOR NO KEY UPDATE OF d SKIP LOCKED
), renewed AS (
  UPDATE push_documents d SET next_attempt_at = now() + $4::float8 * interval '1 second'
    FROM free f WHERE d.company_id = f.company_id AND d.id = f.id
  RETURNING d.id
)
SELECT (SELECT count(*) FROM held)::int AS held, (SELECT count(*) FROM renewed)::int AS renewed;

-- push.requeue
WITH changed AS (
   UPDATE push_documents d SET status = 'queued', updated_at = now(), next_attempt_at = now(), attempts_before_replay = d.attempts, deferrals = 0
    WHERE d.company_id = $1 AND d.id = $2 AND d.status = 'dead_lettered' RETURNING d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload - 'pdf' AS payload,
(SELECT octet_length(b) * 3 / 4 - (octet_length(b) - octet_length(rtrim(b, '='))) FROM (SELECT d.payload ->> 'pdf' AS b) AS pdf) AS pdf_bytes
 ), audit AS (INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, details, credential_type, credential_id, request_id)
 SELECT c.company_id, c.id, 'replayed', c.attempts, NULL, NULL, $3::text, $4::uuid, $5::text FROM changed c)
 SELECT * FROM changed;

-- push.start
WITH changed AS (
   UPDATE push_documents d SET status = 'processing', attempts = d.attempts + 1, updated_at = now(), lease_token = $6,
          next_attempt_at = now() + $4::float8 * interval '1 second',
          last_error = CASE WHEN t.previous_status = 'processing' THEN $5 ELSE d.last_error END
     FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS t(company_id, id, previous_status)
    WHERE d.company_id = t.company_id AND d.id = t.id
    RETURNING d.company_id, d.id, d.document_type, d.external_id, d.version, d.status, d.attempts, d.attempts_before_replay, d.last_error,
d.outcome, d.result_type, d.result_id, d.credential_type, d.credential_id, d.request_id, d.discard_reason,
d.received_at, d.processed_at, d.dead_lettered_at, d.updated_at, d.payload, t.previous_status
 ), audit AS (
   INSERT INTO push_audit_log (company_id, document_id, step, attempt, error, credential_type, credential_id, request_id)
   SELECT c.company_id, c.id, s.step, c.attempts - s.back, CASE WHEN s.step = 'failed' THEN $5 END, c.credential_type, c.credential_id, c.request_id
     FROM changed c CROSS JOIN (VALUES (1, 'failed', 1), (2, 'attempt', 0)) AS s(n, step, back)
    WHERE s.step = 'attempt' OR c.previous_status = 'processing'
    ORDER BY c.id, s.n
 )
 SELECT changed.*, co.name AS company_name, co.time_zone FROM changed JOIN companies co ON co.id = changed.company_id;

-- push.wake_if_free
UPDATE push_documents d SET next_attempt_at = now()
   FROM unnest($1::uuid[], $2::uuid[]) AS t(company_id, id)
  WHERE d.company_id = t.company_id AND d.id = t.id AND d.status IN ('queued', 'failed') AND d.next_attempt_at > now()
    AND NOT EXISTS (
SELECT 1 FROM push_documents p
 WHERE p.company_id = d.company_id AND p.document_type = d.document_type AND lower(p.external_id) = lower(d.external_id)
   AND p.version < d.version AND p.status IN ('queued', 'processing', 'failed'));

-- push.wake_successors
UPDATE push_documents s SET next_attempt_at = now()
 FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[]) AS p(company_id, document_type, external_id, version)
WHERE s.company_id = p.company_id AND s.document_type = p.document_type AND lower(s.external_id) = lower(p.external_id)
  AND s.version > p.version AND s.status = 'queued' AND s.next_attempt_at > now();

