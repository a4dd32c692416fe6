-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- web.add_base_rate
INSERT INTO base_interest_rates (valid_from, rate) VALUES ($1, $2) ON CONFLICT (valid_from) DO NOTHING RETURNING true AS added;

-- web.base_rates
SELECT to_char(valid_from, 'YYYY-MM-DD') AS "validFrom", rate::text AS rate FROM base_interest_rates ORDER BY valid_from DESC;

-- web.customer_invoices
SELECT i.id, i.invoice_number AS "invoiceNumber", i.status, i.invoice_date::text AS "invoiceDate", i.due_date::text AS "dueDate",
      i.original_total::text AS "originalTotal", i.open_amount::text AS "openAmount", count(*) OVER ()::int AS total
 FROM invoices i WHERE i.company_id = $1 AND i.customer_id = $2
ORDER BY i.invoice_date DESC NULLS FIRST, i.created_at DESC, i.id DESC LIMIT $3;

-- web.customer_list (variant 1 of 7)
SELECT c.id, c.name, c.customer_number AS "customerNumber", c.external_id AS "externalId", c.city, s.n AS "openCount", s.open::text AS "openAmount", s.n_overdue AS "overdueCount", s.overdue::text AS "overdueAmount"
 FROM (SELECT c.* FROM customers c WHERE c.company_id = $1 ORDER BY lower(c.name) ASC, c.id ASC LIMIT $4 OFFSET $5) c
 CROSS JOIN LATERAL (
   SELECT count(*)::int AS n, coalesce(sum(i.open_amount), 0) AS open,
          count(*) FILTER (WHERE i.due_date < $3::date)::int AS n_overdue, coalesce(sum(i.open_amount) FILTER (WHERE i.due_date < $3::date), 0) AS overdue
     FROM invoices i WHERE i.company_id = $1 AND i.customer_id = c.id AND i.status = ANY($2::text[])) s
ORDER BY lower(c.name) ASC, c.id ASC;

-- web.customer_list (variant 2 of 7)
SELECT c.id, c.name, c.customer_number AS "customerNumber", c.external_id AS "externalId", c.city, s.n AS "openCount", s.open::text AS "openAmount", s.n_overdue AS "overdueCount", s.overdue::text AS "overdueAmount"
 FROM (SELECT c.* FROM customers c WHERE c.company_id = $1 AND (c.name ILIKE $6 OR c.customer_number ILIKE $6 OR c.external_id ILIKE $6) ORDER BY lower(c.name) DESC, c.id DESC LIMIT $4 OFFSET $5) c
 CROSS JOIN LATERAL (
   SELECT count(*)::int AS n, coalesce(sum(i.open_amount), 0) AS open,
          count(*) FILTER (WHERE i.due_date < $3::date)::int AS n_overdue, coalesce(sum(i.open_amount) FILTER (WHERE i.due_date < $3::date), 0) AS overdue
     FROM invoices i WHERE i.company_id = $1 AND i.customer_id = c.id AND i.status = ANY($2::text[])) s
ORDER BY lower(c.name) DESC, c.id DESC;

-- web.customer_list (variant 3 of 7)
SELECT c.id, c.name, c.customer_number AS "customerNumber", c.external_id AS "externalId", c.city, s.n AS "openCount", s.open::text AS "openAmount", s.n_overdue AS "overdueCount", s.overdue::text AS "overdueAmount"
 FROM (SELECT c.* FROM customers c WHERE c.company_id = $1 AND (c.name ILIKE $6 OR c.customer_number ILIKE $6 OR c.external_id ILIKE $6) ORDER BY c.customer_number DESC NULLS LAST, lower(c.name) ASC, c.id ASC LIMIT $4 OFFSET $5) c
 CROSS JOIN LATERAL (
   SELECT count(*)::int AS n, coalesce(sum(i.open_amount), 0) AS open,
          count(*) FILTER (WHERE i.due_date < $3::date)::int AS n_overdue, coalesce(sum(i.open_amount) FILTER (WHERE i.due_date < $3::date), 0) AS overdue
     FROM invoices i WHERE i.company_id = $1 AND i.customer_id = c.id AND i.status = ANY($2::text[])) s
ORDER BY c.customer_number DESC NULLS LAST, lower(c.name) ASC, c.id ASC;

-- web.customer_list (variant 4 of 7)
SELECT c.id, c.name, c.customer_number AS "customerNumber", c.external_id AS "externalId", c.city, s.n AS "openCount", s.open::text AS "openAmount", s.n_overdue AS "overdueCount", s.overdue::text AS "overdueAmount"
 FROM (SELECT c.* FROM customers c WHERE c.company_id = $1 ORDER BY lower(c.city) ASC NULLS LAST, lower(c.name) ASC, c.id ASC LIMIT $4 OFFSET $5) c
 CROSS JOIN LATERAL (
   SELECT count(*)::int AS n, coalesce(sum(i.open_amount), 0) AS open,
          count(*) FILTER (WHERE i.due_date < $3::date)::int AS n_overdue, coalesce(sum(i.open_amount) FILTER (WHERE i.due_date < $3::date), 0) AS overdue
     FROM invoices i WHERE i.company_id = $1 AND i.customer_id = c.id AND i.status = ANY($2::text[])) s
ORDER BY lower(c.city) ASC NULLS LAST, lower(c.name) ASC, c.id ASC;

-- web.customer_list (variant 5 of 7)
WITH s AS (
    SELECT i.customer_id, count(*)::int AS n, sum(i.open_amount) AS open,
           count(*) FILTER (WHERE i.due_date < $3::date)::int AS n_overdue, coalesce(sum(i.open_amount) FILTER (WHERE i.due_date < $3::date), 0) AS overdue
      FROM invoices i WHERE i.company_id = $1 AND i.status = ANY($2::text[])
     GROUP BY i.customer_id)
SELECT c.id, c.name, c.customer_number AS "customerNumber", c.external_id AS "externalId", c.city, coalesce(s.n, 0) AS "openCount", coalesce(s.open, 0)::text AS "openAmount",
       coalesce(s.n_overdue, 0) AS "overdueCount", coalesce(s.overdue, 0)::text AS "overdueAmount"
  FROM customers c LEFT JOIN s ON s.customer_id = c.id
 WHERE c.company_id = $1
 ORDER BY coalesce(s.open, 0) DESC NULLS LAST, lower(c.name) ASC, c.id ASC LIMIT $4 OFFSET $5;

-- web.customer_list (variant 6 of 7)
WITH s AS (
    SELECT i.customer_id, count(*)::int AS n, sum(i.open_amount) AS open,
           count(*) FILTER (WHERE i.due_date < $3::date)::int AS n_overdue, coalesce(sum(i.open_amount) FILTER (WHERE i.due_date < $3::date), 0) AS overdue
      FROM invoices i WHERE i.company_id = $1 AND i.status = ANY($2::text[])
     GROUP BY i.customer_id)
SELECT c.id, c.name, c.customer_number AS "customerNumber", c.external_id AS "externalId", c.city, coalesce(s.n, 0) AS "openCount", coalesce(s.open, 0)::text AS "openAmount",
       coalesce(s.n_overdue, 0) AS "overdueCount", coalesce(s.overdue, 0)::text AS "overdueAmount"
  FROM customers c LEFT JOIN s ON s.customer_id = c.id
 WHERE c.company_id = $1 AND (c.name ILIKE $6 OR c.customer_number ILIKE $6 OR c.external_id ILIKE $6)
 ORDER BY coalesce(s.overdue, 0) ASC NULLS LAST, lower(c.name) ASC, c.id ASC LIMIT $4 OFFSET $5;

-- web.customer_list (variant 7 of 7)
WITH s AS (
    SELECT i.customer_id, count(*)::int AS n, sum(i.open_amount) AS open,
           count(*) FILTER (WHERE i.due_date < $3::date)::int AS n_overdue, coalesce(sum(i.open_amount) FILTER (WHERE i.due_date < $3::date), 0) AS overdue
      FROM invoices i WHERE i.company_id = $1 AND i.status = ANY($2::text[])
     GROUP BY i.customer_id)
SELECT c.id, c.name, c.customer_number AS "customerNumber", c.external_id AS "externalId", c.city, coalesce(s.n, 0) AS "openCount", coalesce(s.open, 0)::text AS "openAmount",
       coalesce(s.n_overdue, 0) AS "overdueCount", coalesce(s.overdue, 0)::text AS "overdueAmount"
  FROM customers c LEFT JOIN s ON s.customer_id = c.id
 WHERE c.company_id = $1
 ORDER BY coalesce(s.n, 0) DESC NULLS LAST, lower(c.name) ASC, c.id ASC LIMIT $4 OFFSET $5;

-- web.customer_list_count (variant 1 of 2)
SELECT count(*)::int AS count FROM customers c WHERE c.company_id = $1;

-- web.customer_list_count (variant 2 of 2)
SELECT count(*)::int AS count FROM customers c WHERE c.company_id = $1 AND (c.name ILIKE $2 OR c.customer_number ILIKE $2 OR c.external_id ILIKE $2);

-- web.customer_sums
SELECT count(*) FILTER (WHERE true)::int AS "openCount", coalesce(sum(open_amount) FILTER (WHERE true), 0)::text AS "openAmount", count(*) FILTER (WHERE due_date < $4::date)::int AS "overdueCount", coalesce(sum(open_amount) FILTER (WHERE due_date < $4::date), 0)::text AS "overdueAmount"
FROM invoices WHERE company_id = $1 AND customer_id = $2 AND status = ANY($3::text[]);

-- web.dashboard_collected
SELECT to_char(payment_date, 'YYYY-MM') AS month, sum(amount)::text AS amount
 FROM payments
WHERE company_id = $1 AND payment_date >= $2::date AND payment_date <= $3::date
GROUP BY 1;

-- web.dashboard_needs_you
SELECT
  (SELECT count(*)::int FROM shipments s WHERE s.company_id = $1 AND s.attention IS NOT NULL AND s.status IN ('failed', 'needs_attention')
 AND ($2::uuid IS NULL OR s.invoice_id = $2) AND ($3::text IS NULL OR s.document = $3)
 AND NOT EXISTS (
 SELECT 1 FROM shipments later
 WHERE later.company_id = s.company_id AND later.invoice_id = s.invoice_id
   AND later.reminder_id IS NOT DISTINCT FROM s.reminder_id AND later.created_at > s.created_at)) AS "shipments",
  (SELECT count(*)::int FROM invoices i WHERE i.company_id = $1 AND i.status IN ('ready_for_reminder1', 'ready_for_reminder2', 'ready_for_reminder3')
AND NOT EXISTS (SELECT 1 FROM reminders x WHERE x.company_id = i.company_id AND x.invoice_id = i.id AND x.reminder_stage = right(i.status, 1)::int)) AS "approvals",
  (SELECT count(*)::int FROM push_documents d WHERE d.company_id = $1 AND d.status = 'dead_lettered') AS "deadLetters",
  (SELECT count(*)::int FROM erp_connections c WHERE c.company_id = $1 AND (SELECT r.status FROM erp_pull_runs r WHERE r.company_id = c.company_id AND r.connection_id = c.id
            ORDER BY r.queued_at DESC, r.id DESC LIMIT 1) = 'failed') AS "failedPulls",
  (SELECT count(*)::int FROM invoices b
    WHERE b.company_id = $1 AND b.status = ANY($4::text[]) AND b.dunning_block_reason IS NOT NULL
      AND (b.dunning_block_until IS NULL OR b.dunning_block_until >= $5::date)) AS "blocked";

-- web.dashboard_open_figures
SELECT CASE
        WHEN status = 'sent' THEN 'sent'
        WHEN status = 'due' THEN 'due'
        WHEN status IN ('ready_for_reminder1', 'reminder1_sent') THEN 'reminder1'
        WHEN status IN ('ready_for_reminder2', 'reminder2_sent') THEN 'reminder2'
        WHEN status IN ('ready_for_reminder3', 'reminder3_sent') THEN 'reminder3'
        WHEN status = 'ready_for_dept_collection' THEN 'readyForCollection'
        ELSE 'atCollection'
      END AS stage,
      CASE
        WHEN due_date IS NULL OR due_date >= $2::date THEN 'notDue'
        WHEN due_date >= $2::date - 30 THEN 'd1_30'
        WHEN due_date >= $2::date - 60 THEN 'd31_60'
        WHEN due_date >= $2::date - 90 THEN 'd61_90'
        ELSE 'd90'
      END AS bucket,
      count(*)::int AS count, sum(open_amount)::text AS amount
 FROM invoices WHERE company_id = $1 AND status IN ('sent', 'due', 'ready_for_reminder1', 'reminder1_sent', 'ready_for_reminder2', 'reminder2_sent', 'ready_for_reminder3', 'reminder3_sent', 'ready_for_dept_collection', 'sent_to_dept_collection')
GROUP BY 1, 2;

-- web.dashboard_sales
SELECT coalesce(sum(original_total), 0)::text AS sales
 FROM invoices
WHERE company_id = $1 AND invoice_date > $2::date - $3::int AND invoice_date <= $2::date AND status NOT IN ('draft', 'duplicate');

-- web.dunning_invoice_summaries
SELECT i.id, i.invoice_number AS "invoiceNumber", i.customer_id AS "customerId", c.name AS "customerName",
      i.open_amount::text AS "openAmount", i.status, to_char(i.due_date, 'YYYY-MM-DD') AS "dueDate"
 FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
WHERE i.company_id = $1 AND i.id = ANY($2::uuid[])
ORDER BY c.name, i.due_date, i.id;

-- web.dunning_run_invoices
SELECT i.id, i.invoice_number AS "invoiceNumber", i.customer_id AS "customerId", c.name AS "customerName",
      i.open_amount::text AS "openAmount", i.status, to_char(i.due_date, 'YYYY-MM-DD') AS "dueDate"
 FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
WHERE i.company_id = $1 AND i.id IN (
        SELECT e.invoice_id FROM invoice_events e WHERE e.company_id = $1 AND e.actor_type = 'run' AND e.actor_id = $2::text
        UNION SELECT r.invoice_id FROM reminders r WHERE r.company_id = $1 AND r.run_id = $2::uuid)
ORDER BY c.name, i.due_date, i.id LIMIT 500;

-- web.find_user_by_email
-- across companies: an e-mail address names its company: the sign-in comes before the company is known
SELECT company_id AS "companyId", id, password_hash AS "passwordHash" FROM users WHERE lower(email) = lower($1) ORDER BY created_at LIMIT 1;

-- web.invoice_event_users
SELECT id::text AS id, email FROM users WHERE company_id = $1 AND id::text = ANY($2::text[]);

-- web.session_destroy
DELETE FROM web_sessions WHERE sid = $1;

-- web.session_get
SELECT sess FROM web_sessions WHERE sid = $1 AND expires_at > now();

-- web.session_prune
DELETE FROM web_sessions WHERE expires_at <= now();

-- web.session_set
INSERT INTO web_sessions (sid, sess, expires_at) VALUES ($1, $2, $3)
ON CONFLICT (sid) DO UPDATE SET sess = EXCLUDED.sess, expires_at = EXCLUDED.expires_at;

-- web.session_touch
UPDATE web_sessions SET expires_at = $2 WHERE sid = $1 AND expires_at > now();

-- web.set_user_locale
UPDATE users SET locale = $3 WHERE company_id = $1 AND id = $2;

-- web.signed_in_user
SELECT u.id, u.email, u.role, u.locale, c.id AS "companyId", c.name AS "companyName", c.time_zone AS "timeZone"
 FROM users u JOIN companies c ON c.id = u.company_id
WHERE u.company_id = $1 AND u.id = $2;

