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

-- erp_pull.connections_count
SELECT count(*) AS count FROM erp_connections WHERE company_id = $1;

-- erp_pull.connections_page
SELECT "company_id" AS "companyId", "id" AS "id", "name" AS "name", "base_url" AS "baseUrl", "odata_version" AS "odataVersion", "auth_method" AS "authMethod", "token_url" AS "tokenUrl", "client_id" AS "clientId", "token_endpoint_auth_method" AS "tokenEndpointAuthMethod", "oauth_scope" AS "oauthScope", "username" AS "username", "client_certificate" AS "clientCertificate", "ca_certificates" AS "caCertificates", "secrets" AS "secrets", "secret_names" AS "secretNames", "sap_client" AS "sapClient", "schedule" AS "schedule", "enabled" AS "enabled", "entities" AS "entities", "service_paths" AS "servicePaths", "mapping" AS "mapping", "currency" AS "currency", "page_size" AS "pageSize", "watermarks" AS "watermarks", "watermark_generation" AS "watermarkGeneration", "next_pull_at" AS "nextPullAt", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM erp_connections WHERE company_id = $1 ORDER BY created_at ASC, id ASC LIMIT $2 OFFSET $3;

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

-- erp_pull.lock_active_run
SELECT r."company_id" AS "companyId", r."id" AS "id", r."connection_id" AS "connectionId", r."trigger" AS "trigger", r."mode" AS "mode", r."status" AS "status", r."resumed_from" AS "resumedFrom", r."queued_at" AS "queuedAt", r."started_at" AS "startedAt", r."heartbeat_at" AS "heartbeatAt", r."finished_at" AS "finishedAt", r."pages" AS "pages", r."requests" AS "requests", r."created" AS "created", r."updated" AS "updated", r."unchanged" AS "unchanged", r."failed" AS "failed", r."skipped" AS "skipped", r."counts" AS "counts", r."watermark_from" AS "watermarkFrom", r."watermark_to" AS "watermarkTo", r."error" AS "error", r."errors" AS "errors" FROM erp_pull_runs r
WHERE r.company_id = $1 AND r.connection_id = $2 AND r.status IN ('queued', 'running')
  FOR UPDATE;

-- erp_pull.lock_due_connection
SELECT c.id, co.time_zone FROM erp_connections c JOIN companies co ON co.id = c.company_id
WHERE c.company_id = $1 AND c.id = $2 AND c.enabled AND c.schedule IS NOT NULL AND c.next_pull_at <= now()
  FOR UPDATE OF c SKIP LOCKED;

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

