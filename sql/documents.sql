-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- documents.abandoned_pending
-- across companies: the sweeper removes the abandoned files of every company
SELECT company_id AS "companyId", id, keys FROM pending_documents WHERE created_at < now() - make_interval(hours => $1) ORDER BY created_at LIMIT $2;

-- documents.announce_pending
INSERT INTO pending_documents (company_id, id, keys) VALUES ($1, $2, $3);

-- documents.settle_pending
DELETE FROM pending_documents WHERE company_id = $1 AND id = $2;

