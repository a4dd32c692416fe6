-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- web_erp.failed_pulls_page
SELECT c.id AS "connectionId", c.name AS "connectionName", last.id AS "runId", coalesce(last.finished_at, last.queued_at) AS at,
      last.error, count(*) OVER ()::int AS total
 FROM erp_connections c
 CROSS JOIN LATERAL (SELECT r.id, r.finished_at, r.queued_at, r.error FROM erp_pull_runs r
                      WHERE r.company_id = c.company_id AND r.connection_id = c.id
                      ORDER BY r.queued_at DESC, r.id DESC LIMIT 1) last
WHERE c.company_id = $1 AND (SELECT r.status FROM erp_pull_runs r WHERE r.company_id = c.company_id AND r.connection_id = c.id
           ORDER BY r.queued_at DESC, r.id DESC LIMIT 1) = 'failed'
ORDER BY at DESC, c.id
LIMIT $2 OFFSET $3;

