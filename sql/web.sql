-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- web.add_base_rate
INSERT INTO base_interest_rates (valid_from, rate) VALUES ($1, $2) ON CONFLICT (valid_from) DO NOTHING RETURNING true AS added;

-- web.base_rates
SELECT to_char(valid_from, 'YYYY-MM-DD') AS "validFrom", rate::text AS rate FROM base_interest_rates ORDER BY valid_from DESC;

-- web.customer_sums
SELECT count(*) FILTER (WHERE true)::int AS "openCount", coalesce(sum(open_amount) FILTER (WHERE true), 0)::text AS "openAmount", count(*) FILTER (WHERE due_date < $4::date)::int AS "overdueCount", coalesce(sum(open_amount) FILTER (WHERE due_date < $4::date), 0)::text AS "overdueAmount"
FROM invoices WHERE company_id = $1 AND customer_id = $2 AND status = ANY($3::text[]);

-- web.dashboard_by_stage
SELECT CASE
        WHEN status = 'sent' THEN 'sent'
        WHEN status = 'due' THEN 'due'
        WHEN status IN ('ready_for_reminder1', 'reminder1_sent') THEN 'reminder1'
        WHEN status IN ('ready_for_reminder2', 'reminder2_sent') THEN 'reminder2'
        WHEN status IN ('ready_for_reminder3', 'reminder3_sent') THEN 'reminder3'
        WHEN status = 'ready_for_dept_collection' THEN 'readyForCollection'
        ELSE 'atCollection'
      END AS stage,
      count(*)::int AS count, coalesce(sum(open_amount), 0)::text AS amount
 FROM invoices WHERE company_id = $1 AND status = ANY($2::text[])
GROUP BY 1;

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
  (SELECT count(*)::int FROM erp_connections c
    WHERE c.company_id = $1
      AND (SELECT r.status FROM erp_pull_runs r WHERE r.company_id = c.company_id AND r.connection_id = c.id
            ORDER BY r.queued_at DESC, r.id DESC LIMIT 1) = 'failed') AS "failedPulls",
  (SELECT count(*)::int FROM invoices b
    WHERE b.company_id = $1 AND b.status = ANY($4::text[]) AND b.dunning_block_reason IS NOT NULL
      AND (b.dunning_block_until IS NULL OR b.dunning_block_until >= $5::date)) AS "blocked";

-- web.dashboard_sales
SELECT coalesce(sum(original_total), 0)::text AS sales
 FROM invoices
WHERE company_id = $1 AND invoice_date > $2::date - $3::int AND invoice_date <= $2::date AND status NOT IN ('draft', 'duplicate');

-- web.dashboard_totals
SELECT count(*) FILTER (WHERE true)::int AS "openCount", coalesce(sum(open_amount) FILTER (WHERE true), 0)::text AS "openAmount",
     count(*) FILTER (WHERE due_date < $3::date)::int AS "overdueCount", coalesce(sum(open_amount) FILTER (WHERE due_date < $3::date), 0)::text AS "overdueAmount",
     count(*) FILTER (WHERE due_date IS NULL OR due_date >= $3::date)::int AS "notDueCount", coalesce(sum(open_amount) FILTER (WHERE due_date IS NULL OR due_date >= $3::date), 0)::text AS "notDueAmount",
     count(*) FILTER (WHERE ($3::date - due_date) BETWEEN 1 AND 30)::int AS "d1_30Count", coalesce(sum(open_amount) FILTER (WHERE ($3::date - due_date) BETWEEN 1 AND 30), 0)::text AS "d1_30Amount",
     count(*) FILTER (WHERE ($3::date - due_date) BETWEEN 31 AND 60)::int AS "d31_60Count", coalesce(sum(open_amount) FILTER (WHERE ($3::date - due_date) BETWEEN 31 AND 60), 0)::text AS "d31_60Amount",
     count(*) FILTER (WHERE ($3::date - due_date) BETWEEN 61 AND 90)::int AS "d61_90Count", coalesce(sum(open_amount) FILTER (WHERE ($3::date - due_date) BETWEEN 61 AND 90), 0)::text AS "d61_90Amount",
     count(*) FILTER (WHERE ($3::date - due_date) > 90)::int AS "d90Count", coalesce(sum(open_amount) FILTER (WHERE ($3::date - due_date) > 90), 0)::text AS "d90Amount"
FROM invoices WHERE company_id = $1 AND status = ANY($2::text[]);

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
SELECT u.id, u.email, u.locale, c.id AS "companyId", c.name AS "companyName", c.time_zone AS "timeZone"
 FROM users u JOIN companies c ON c.id = u.company_id
WHERE u.company_id = $1 AND u.id = $2;

