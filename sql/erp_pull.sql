-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- erp_pull.add_run_progress
UPDATE erp_pull_runs SET heartbeat_at = now(), pages = GREATEST(pages, $3), requests = GREATEST(requests, $4),
      created = created + $5, updated = updated + $6, unchanged = unchanged + $7, failed = failed + $8, skipped = skipped + $9,
      counts = counts || coalesce((
        SELECT jsonb_object_agg(e.key, coalesce(counts -> e.key, '{}'::jsonb) || coalesce((
                 SELECT jsonb_object_agg(f.key, coalesce((counts -> e.key ->> f.key)::int, 0) + f.value::int) FROM jsonb_each_text(e.value) f), '{}'::jsonb))
          FROM jsonb_each($10::jsonb) e), '{}'::jsonb),
      errors = CASE WHEN jsonb_array_length($11::jsonb) = 0 THEN errors ELSE (
        SELECT coalesce(jsonb_agg(x ORDER BY n), '[]'::jsonb)
          FROM (SELECT x, n FROM jsonb_array_elements(errors || $11::jsonb) WITH ORDINALITY t(x, n) ORDER BY n LIMIT 100) kept) END,
      watermark_to = coalesce($12::jsonb, watermark_to)
WHERE company_id = $1 AND id = $2 AND status = 'running' RETURNING id;

-- erp_pull.attach_invoice_pdf
UPDATE invoices SET pdf_key = $3, pdf_size = $4, pdf_sha256 = $5, pdf_active_content = false, updated_at = now()
WHERE company_id = $1 AND id = $2 AND pdf_key IS NULL;

-- erp_pull.clearing_pulled_items
SELECT p.invoice_id, i.external_id, p.connection_id, p.erp_key FROM erp_pulled_invoices p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.invoice_id
WHERE p.company_id = $1 AND p.invoice_id = ANY ($2::uuid[]) AND i.external_id IS NOT NULL AND i.open_amount > 0
ORDER BY p.connection_id, p.invoice_id;

-- erp_pull.clearing_ready_invoices
SELECT id FROM invoices
WHERE company_id = $1 AND status IN ('ready_for_reminder1', 'ready_for_reminder2', 'ready_for_reminder3')
  AND ($2::uuid[] IS NULL OR id = ANY ($2::uuid[]));

-- erp_pull.clearing_reminder_invoice
SELECT invoice_id FROM reminders WHERE company_id = $1 AND id = $2;

-- erp_pull.clearing_skipped_events
INSERT INTO invoice_events (company_id, invoice_id, kind, actor_type, actor_id, reason, details)
SELECT $1, t.invoice_id, 'reminder_skipped', 'run', $4, t.reason, $5::jsonb
  FROM unnest($2::uuid[], $3::text[]) AS t(invoice_id, reason)
  JOIN invoices i ON i.company_id = $1 AND i.id = t.invoice_id;

-- erp_pull.connections_count
SELECT count(*) AS count FROM erp_connections WHERE company_id = $1;

-- erp_pull.connections_page
SELECT "company_id" AS "companyId", "id" AS "id", "name" AS "name", "base_url" AS "baseUrl", "odata_version" AS "odataVersion", "auth_method" AS "authMethod", "token_url" AS "tokenUrl", "client_id" AS "clientId", "token_endpoint_auth_method" AS "tokenEndpointAuthMethod", "oauth_scope" AS "oauthScope", "username" AS "username", "client_certificate" AS "clientCertificate", "ca_certificates" AS "caCertificates", "secrets" AS "secrets", "secret_names" AS "secretNames", "sap_client" AS "sapClient", "schedule" AS "schedule", "enabled" AS "enabled", "entities" AS "entities", "service_paths" AS "servicePaths", "mapping" AS "mapping", "currency" AS "currency", "page_size" AS "pageSize", "fetch_invoice_pdfs" AS "fetchInvoicePdfs", "watermarks" AS "watermarks", "watermark_generation" AS "watermarkGeneration", "next_pull_at" AS "nextPullAt", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM erp_connections WHERE company_id = $1 ORDER BY created_at ASC, id ASC LIMIT $2 OFFSET $3;

-- erp_pull.due_connections
-- across companies: the scheduler's minute tick looks for the due connections of every company
SELECT company_id, id FROM erp_connections
WHERE enabled AND schedule IS NOT NULL AND next_pull_at <= now()
ORDER BY next_pull_at LIMIT $1;

-- erp_pull.finish_run
UPDATE erp_pull_runs SET status = $13, finished_at = now(), heartbeat_at = now(), error = $14, pages = $3, requests = $4,
      created = $5, updated = $6, unchanged = $7, failed = $8, skipped = $9, counts = $10, errors = $11, watermark_to = $12
WHERE company_id = $1 AND id = $2 AND status = 'running';

-- erp_pull.forget_pulled_invoices
DELETE FROM erp_pulled_invoices WHERE company_id = $1 AND connection_id = $2;

-- erp_pull.insert_queued_run
INSERT INTO erp_pull_runs (company_id, id, connection_id, trigger, mode, status, resumed_from, watermark_from)
VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7)
ON CONFLICT (company_id, connection_id) WHERE status IN ('queued', 'running') DO NOTHING
RETURNING id;

-- erp_pull.interrupt_run
UPDATE erp_pull_runs SET status = 'failed', finished_at = now(), error = $3
WHERE company_id = $1 AND id = $2 AND status IN ('queued', 'running');

-- erp_pull.invoices_without_pdf
SELECT i.id, i.additional_number AS billing_document FROM erp_pulled_invoices p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.invoice_id
WHERE p.company_id = $1 AND p.connection_id = $2 AND i.pdf_key IS NULL AND i.additional_number <> ''
ORDER BY i.id LIMIT $3;

-- erp_pull.lock_active_run
SELECT r."company_id" AS "companyId", r."id" AS "id", r."connection_id" AS "connectionId", r."trigger" AS "trigger", r."mode" AS "mode", r."status" AS "status", r."resumed_from" AS "resumedFrom", r."queued_at" AS "queuedAt", r."started_at" AS "startedAt", r."heartbeat_at" AS "heartbeatAt", r."finished_at" AS "finishedAt", r."pages" AS "pages", r."requests" AS "requests", r."created" AS "created", r."updated" AS "updated", r."unchanged" AS "unchanged", r."failed" AS "failed", r."skipped" AS "skipped", r."counts" AS "counts", r."watermark_from" AS "watermarkFrom", r."watermark_to" AS "watermarkTo", r."error" AS "error", r."errors" AS "errors" FROM erp_pull_runs r
WHERE r.company_id = $1 AND r.connection_id = $2 AND r.status IN ('queued', 'running')
  FOR UPDATE;

-- erp_pull.lock_due_connection
SELECT c.id, co.time_zone FROM erp_connections c JOIN companies co ON co.id = c.company_id
WHERE c.company_id = $1 AND c.id = $2 AND c.enabled AND c.schedule IS NOT NULL AND c.next_pull_at <= now()
  FOR UPDATE OF c SKIP LOCKED;

-- erp_pull.mark_seen
WITH seen AS (
  SELECT i.id, t.erp_key FROM unnest($4::text[], $5::text[]) AS t(external_id, erp_key)
    JOIN LATERAL (SELECT x.id FROM invoices x WHERE x.company_id = $1 AND lower(x.external_id) = lower(t.external_id) AND x.external_id IS NOT NULL LIMIT 1) i ON true
),
marked AS (
  UPDATE erp_pulled_invoices p SET seen_run = $3
    FROM seen s WHERE s.erp_key IS NULL AND p.company_id = $1 AND p.invoice_id = s.id
)
INSERT INTO erp_pulled_invoices AS p (company_id, invoice_id, connection_id, erp_key, seen_run)
SELECT $1, id, $2, erp_key::jsonb, $3 FROM seen WHERE erp_key IS NOT NULL ORDER BY id
ON CONFLICT (company_id, invoice_id) DO UPDATE SET connection_id = EXCLUDED.connection_id, erp_key = EXCLUDED.erp_key, seen_run = EXCLUDED.seen_run;

-- erp_pull.run_heartbeat
UPDATE erp_pull_runs SET heartbeat_at = now() WHERE company_id = $1 AND id = $2 AND status = 'running' RETURNING id;

-- erp_pull.runs_count
SELECT count(*) AS count FROM erp_pull_runs WHERE company_id = $1 AND connection_id = $2;

-- erp_pull.runs_page
SELECT "company_id" AS "companyId", "id" AS "id", "connection_id" AS "connectionId", "trigger" AS "trigger", "mode" AS "mode", "status" AS "status", "resumed_from" AS "resumedFrom", "queued_at" AS "queuedAt", "started_at" AS "startedAt", "heartbeat_at" AS "heartbeatAt", "finished_at" AS "finishedAt", "pages" AS "pages", "requests" AS "requests", "created" AS "created", "updated" AS "updated", "unchanged" AS "unchanged", "failed" AS "failed", "skipped" AS "skipped", "counts" AS "counts", "watermark_from" AS "watermarkFrom", "watermark_to" AS "watermarkTo", "error" AS "error", "errors" AS "errors" FROM erp_pull_runs WHERE company_id = $1 AND connection_id = $2 ORDER BY queued_at DESC, id DESC LIMIT $3 OFFSET $4;

-- erp_pull.save_watermarks
UPDATE erp_connections SET watermarks = watermarks || $4::jsonb WHERE company_id = $1 AND id = $2 AND watermark_generation = $3 RETURNING id;

-- erp_pull.set_next_pull_at
UPDATE erp_connections SET next_pull_at = $3 WHERE company_id = $1 AND id = $2;

-- erp_pull.start_run
UPDATE erp_pull_runs SET status = 'running', started_at = now(), heartbeat_at = now()
WHERE company_id = $1 AND id = $2 AND status = 'queued' RETURNING id;

-- erp_pull.unseen_open
SELECT p.invoice_id, i.external_id, p.erp_key FROM erp_pulled_invoices p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.invoice_id
WHERE p.company_id = $1 AND p.connection_id = $2 AND p.seen_run IS DISTINCT FROM $3
  AND p.invoice_id > coalesce($4::uuid, '00000000-0000-0000-0000-000000000000')
  AND i.status = ANY ($5::text[]) AND i.open_amount > 0
ORDER BY p.invoice_id LIMIT $6;

-- erp_pull.upsert_contacts
WITH input AS (SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(external_id, name, phone, email))
INSERT INTO contacts AS k (company_id, id, customer_id, external_id, name, phone, gender, salutation, email, created_at, updated_at)
SELECT $1, gen_random_uuid(), c.id, $6 || t.external_id, t.name, t.phone, 0, 0, t.email, now(), now()
  FROM input t
  JOIN LATERAL (SELECT x.id FROM customers x WHERE x.company_id = $1 AND lower(x.external_id) = lower(t.external_id) AND x.external_id IS NOT NULL LIMIT 1) c ON true
 WHERE t.email IS NOT NULL OR EXISTS (SELECT x.id FROM contacts x WHERE x.company_id = $1 AND lower(x.external_id) = lower($6 || t.external_id) AND x.external_id IS NOT NULL LIMIT 1)
 ORDER BY lower(t.external_id)
ON CONFLICT (company_id, lower(external_id)) WHERE external_id IS NOT NULL DO UPDATE SET
  customer_id = EXCLUDED.customer_id, name = EXCLUDED.name, phone = EXCLUDED.phone, email = EXCLUDED.email, updated_at = now()
WHERE (k.customer_id, k.name, k.phone, k.email) IS DISTINCT FROM (EXCLUDED.customer_id, EXCLUDED.name, EXCLUDED.phone, EXCLUDED.email)
RETURNING lower(substr(k.external_id, length($6) + 1)) AS key;

-- erp_pull.upsert_customers
WITH input AS (
  SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
    AS t(external_id, name, street, zip, city, country, phone, additional_number)
)
INSERT INTO customers AS c (company_id, id, external_id, customer_number, additional_number, name, phone,
                            address_line1, address_line3, zip, city, country_code, stop_automatic_reminders, created_at, updated_at)
SELECT $1, gen_random_uuid(), external_id, external_id, additional_number, name, phone, name, street, zip, city, country, false, now(), now()
  FROM input
ON CONFLICT (company_id, lower(external_id)) WHERE external_id IS NOT NULL DO UPDATE SET
  customer_number = EXCLUDED.customer_number, additional_number = EXCLUDED.additional_number, name = EXCLUDED.name,
  phone = EXCLUDED.phone, address_line1 = EXCLUDED.address_line1, address_line3 = EXCLUDED.address_line3,
  zip = EXCLUDED.zip, city = EXCLUDED.city, country_code = EXCLUDED.country_code, updated_at = now()
WHERE (c.customer_number, c.additional_number, c.name, c.phone, c.address_line1, c.address_line3, c.zip, c.city, c.country_code)
      IS DISTINCT FROM
      (EXCLUDED.customer_number, EXCLUDED.additional_number, EXCLUDED.name, EXCLUDED.phone, EXCLUDED.address_line1,
       EXCLUDED.address_line3, EXCLUDED.zip, EXCLUDED.city, EXCLUDED.country_code)
RETURNING lower(c.external_id) AS key, (xmax = 0) AS inserted;

