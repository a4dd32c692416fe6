-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- dunning.approvals_count
SELECT count(*)::int AS n FROM invoices i
 LEFT JOIN LATERAL (
   SELECT e.created_at FROM invoice_events e
    WHERE e.company_id = i.company_id AND e.invoice_id = i.id AND e.kind = 'status_changed' AND e.to_status = i.status
    ORDER BY e.id DESC LIMIT 1
 ) moved ON true
 LEFT JOIN LATERAL (
   SELECT r.id, r.business_date FROM dunning_runs r
    WHERE r.company_id = i.company_id AND r.status = 'succeeded' AND r.finished_at >= moved.created_at
    ORDER BY r.business_date DESC, r.started_at DESC LIMIT 1
 ) run ON true
WHERE i.company_id = $1 AND i.status IN ('ready_for_reminder1', 'ready_for_reminder2', 'ready_for_reminder3')
  AND NOT EXISTS (SELECT 1 FROM reminders x WHERE x.company_id = i.company_id AND x.invoice_id = i.id AND x.reminder_stage = right(i.status, 1)::int) AND ($2::uuid IS NULL OR i.customer_id = $2::uuid) AND ($3::int IS NULL OR right(i.status, 1)::int = $3::int);

-- dunning.approvals_invoice_statuses
SELECT id, status FROM invoices WHERE company_id = $1 AND id = ANY($2::uuid[]);

-- dunning.approvals_lock (variant 1 of 2)
SELECT i.id AS invoice_id, i.customer_id, i.invoice_number, i.open_amount::text AS open_amount, right(i.status, 1)::int AS stage,
      run.id AS run_id, to_char(run.business_date, 'YYYY-MM-DD') AS business_date,
      CASE
        WHEN (SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
          THEN 'the customer has stop_automatic_reminders'
        WHEN i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $2::date)
          THEN 'dunning block: ' || i.dunning_block_reason
        WHEN i.open_amount < ($3::numeric[])[right(i.status, 1)::int] THEN 'the open amount is below ' || ($3::numeric[])[right(i.status, 1)::int]
      END AS refusal
 FROM invoices i
 LEFT JOIN LATERAL (
   SELECT e.created_at FROM invoice_events e
    WHERE e.company_id = i.company_id AND e.invoice_id = i.id AND e.kind = 'status_changed' AND e.to_status = i.status
    ORDER BY e.id DESC LIMIT 1
 ) moved ON true
 LEFT JOIN LATERAL (
   SELECT r.id, r.business_date FROM dunning_runs r
    WHERE r.company_id = i.company_id AND r.status = 'succeeded' AND r.finished_at >= moved.created_at
    ORDER BY r.business_date DESC, r.started_at DESC LIMIT 1
 ) run ON true
WHERE i.company_id = $1 AND i.status IN ('ready_for_reminder1', 'ready_for_reminder2', 'ready_for_reminder3')
  AND NOT EXISTS (SELECT 1 FROM reminders x WHERE x.company_id = i.company_id AND x.invoice_id = i.id AND x.reminder_stage = right(i.status, 1)::int) AND i.id = ANY($4::uuid[])
 ORDER BY i.id
 FOR UPDATE OF i;

-- dunning.approvals_lock (variant 2 of 2)
SELECT i.id AS invoice_id, i.customer_id, i.invoice_number, i.open_amount::text AS open_amount, right(i.status, 1)::int AS stage,
      run.id AS run_id, to_char(run.business_date, 'YYYY-MM-DD') AS business_date,
      CASE
        WHEN (SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
          THEN 'the customer has stop_automatic_reminders'
        WHEN i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $2::date)
          THEN 'dunning block: ' || i.dunning_block_reason
        WHEN i.open_amount < ($3::numeric[])[right(i.status, 1)::int] THEN 'the open amount is below ' || ($3::numeric[])[right(i.status, 1)::int]
      END AS refusal
 FROM invoices i
 LEFT JOIN LATERAL (
   SELECT e.created_at FROM invoice_events e
    WHERE e.company_id = i.company_id AND e.invoice_id = i.id AND e.kind = 'status_changed' AND e.to_status = i.status
    ORDER BY e.id DESC LIMIT 1
 ) moved ON true
 LEFT JOIN LATERAL (
   SELECT r.id, r.business_date FROM dunning_runs r
    WHERE r.company_id = i.company_id AND r.status = 'succeeded' AND r.finished_at >= moved.created_at
    ORDER BY r.business_date DESC, r.started_at DESC LIMIT 1
 ) run ON true
WHERE i.company_id = $1 AND i.status IN ('ready_for_reminder1', 'ready_for_reminder2', 'ready_for_reminder3')
  AND NOT EXISTS (SELECT 1 FROM reminders x WHERE x.company_id = i.company_id AND x.invoice_id = i.id AND x.reminder_stage = right(i.status, 1)::int)
 ORDER BY i.id
 FOR UPDATE OF i;

-- dunning.approvals_page
SELECT i.id AS invoice_id, i.customer_id, i.invoice_number, i.open_amount::text AS open_amount, right(i.status, 1)::int AS stage,
      run.id AS run_id, to_char(run.business_date, 'YYYY-MM-DD') AS business_date FROM invoices i
 LEFT JOIN LATERAL (
   SELECT e.created_at FROM invoice_events e
    WHERE e.company_id = i.company_id AND e.invoice_id = i.id AND e.kind = 'status_changed' AND e.to_status = i.status
    ORDER BY e.id DESC LIMIT 1
 ) moved ON true
 LEFT JOIN LATERAL (
   SELECT r.id, r.business_date FROM dunning_runs r
    WHERE r.company_id = i.company_id AND r.status = 'succeeded' AND r.finished_at >= moved.created_at
    ORDER BY r.business_date DESC, r.started_at DESC LIMIT 1
 ) run ON true
WHERE i.company_id = $1 AND i.status IN ('ready_for_reminder1', 'ready_for_reminder2', 'ready_for_reminder3')
  AND NOT EXISTS (SELECT 1 FROM reminders x WHERE x.company_id = i.company_id AND x.invoice_id = i.id AND x.reminder_stage = right(i.status, 1)::int) AND ($2::uuid IS NULL OR i.customer_id = $2::uuid) AND ($3::int IS NULL OR right(i.status, 1)::int = $3::int) ORDER BY i.due_date, i.id LIMIT $4 OFFSET $5;

-- dunning.find_run
SELECT id, company_id, to_char(business_date, 'YYYY-MM-DD') AS business_date, trigger, status, started_at, finished_at,
duration_ms, transitions, reminders_created, fees_planned::text AS fees_planned, errors FROM dunning_runs WHERE company_id = $1 AND id = $2;

-- dunning.find_succeeded_run
SELECT id, company_id, to_char(business_date, 'YYYY-MM-DD') AS business_date, trigger, status, started_at, finished_at,
duration_ms, transitions, reminders_created, fees_planned::text AS fees_planned, errors FROM dunning_runs WHERE company_id = $1 AND business_date = $2 AND status = 'succeeded'
  ORDER BY started_at DESC LIMIT 1;

-- dunning.finish_run
UPDATE dunning_runs SET status = $3, finished_at = now(), duration_ms = $4, transitions = $5, reminders_created = $6,
fees_planned = $7, errors = $8 WHERE company_id = $1 AND id = $2;

-- dunning.has_base_rate
SELECT 1 FROM base_interest_rates WHERE valid_from = $1;

-- dunning.has_scheduled_run
SELECT 1 FROM dunning_runs WHERE company_id = $1 AND business_date = $2 AND trigger = 'schedule' AND status <> 'failed';

-- dunning.issue_reminders (variant 1 of 2)
INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, shipping_mode, fees, flat_fee,
                          default_interest, interest_from, interest_until, interest_points, run_id, pay_by)
   SELECT i.company_id, gen_random_uuid(), i.id, 1, $3::date, i.shipping_mode,
          CASE WHEN i.ignore_reminder_fees OR (x.flat AND (x.has_flat OR i.reminder_fees < 40.00)) THEN 0 ELSE 5.00::numeric END,
          CASE WHEN x.flat AND NOT x.has_flat THEN greatest(0, 40.00 - i.reminder_fees) ELSE 0 END,
          0,
          CASE WHEN x.interest_from <= $3::date THEN x.interest_from END,
          CASE WHEN x.interest_from <= $3::date THEN $3::date END,
          CASE WHEN x.interest_from <= $3::date THEN (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END) END,
          $2, $3::date + 7
     FROM invoices i
     JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
     CROSS JOIN LATERAL (
       SELECT false AS flat, false AS has_flat,
              CASE WHEN false THEN (SELECT CASE WHEN s.since IS NOT NULL THEN greatest(s.since, (SELECT max(l.until_day) FROM interest_lines l
WHERE l.company_id = i.company_id AND l.invoice_id = i.id AND l.kind = 'interest'
  AND (l.reminder_id IS NULL OR EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = l.company_id AND r.id = l.reminder_id AND r.dispatched_at IS NOT NULL))) + 1) END FROM (SELECT (CASE WHEN coalesce((SELECT p.policy->>'defaultInterest' FROM dunning_policies p WHERE p.company_id = i.company_id)::boolean, false) AND NOT i.ignore_reminder_fees THEN least(
(SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END) END) AS since) s) END AS interest_from
     ) x
    WHERE i.company_id = $1 AND i.status = 'ready_for_reminder1' AND NOT EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1)

   RETURNING id, invoice_id, fees::text, default_interest::text, flat_fee::text;

-- dunning.issue_reminders (variant 2 of 2)
INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, shipping_mode, fees, flat_fee,
                          default_interest, interest_from, interest_until, interest_points, run_id, pay_by)
   SELECT i.company_id, gen_random_uuid(), i.id, 2, $3::date, i.shipping_mode,
          CASE WHEN i.ignore_reminder_fees OR (x.flat AND (x.has_flat OR i.reminder_fees < 40.00)) THEN 0 ELSE 5.00::numeric END,
          CASE WHEN x.flat AND NOT x.has_flat THEN greatest(0, 40.00 - i.reminder_fees) ELSE 0 END,
          0,
          CASE WHEN x.interest_from <= $3::date THEN x.interest_from END,
          CASE WHEN x.interest_from <= $3::date THEN $3::date END,
          CASE WHEN x.interest_from <= $3::date THEN (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END) END,
          $2, $3::date + 7
     FROM invoices i
     JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
     CROSS JOIN LATERAL (
       SELECT NOT i.ignore_reminder_fees AND c.customer_type = 'business' AND coalesce(least(
(SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END) <= $3::date, false) AS flat, EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.dispatched_at IS NOT NULL AND r.flat_fee > 0) AS has_flat,
              CASE WHEN NOT i.ignore_reminder_fees THEN (SELECT CASE WHEN s.since IS NOT NULL THEN greatest(s.since, (SELECT max(l.until_day) FROM interest_lines l
WHERE l.company_id = i.company_id AND l.invoice_id = i.id AND l.kind = 'interest'
  AND (l.reminder_id IS NULL OR EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = l.company_id AND r.id = l.reminder_id AND r.dispatched_at IS NOT NULL))) + 1) END FROM (SELECT (CASE WHEN coalesce((SELECT p.policy->>'defaultInterest' FROM dunning_policies p WHERE p.company_id = i.company_id)::boolean, false) AND NOT i.ignore_reminder_fees THEN least(
(SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END) END) AS since) s) END AS interest_from
     ) x
    WHERE i.company_id = $1 AND i.status = 'ready_for_reminder2' AND NOT EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 2)
      AND i.id = ANY($4::uuid[])
   RETURNING id, invoice_id, fees::text, default_interest::text, flat_fee::text;

-- dunning.latest_base_rates
SELECT to_char(valid_from, 'YYYY-MM-DD') AS "validFrom", rate::text AS rate FROM base_interest_rates ORDER BY valid_from DESC LIMIT 4;

-- dunning.policy
SELECT policy FROM dunning_policies WHERE company_id = $1;

-- dunning.pulls_holding_back
SELECT r.connection_id, r.status AS state, coalesce(r.started_at, r.queued_at) AS since
  FROM erp_pull_runs r
 WHERE r.company_id = $1
   AND ((r.status = 'queued' AND r.queued_at > $2::timestamptz - $3 * interval '1 millisecond')
     OR (r.status = 'running' AND coalesce(r.heartbeat_at, r.started_at, r.queued_at) > $2::timestamptz - $4 * interval '1 second'))
UNION ALL
SELECT c.id, 'due', c.next_pull_at
  FROM erp_connections c
 WHERE c.company_id = $1 AND c.enabled AND c.schedule IS NOT NULL
   AND c.next_pull_at <= $2::timestamptz AND c.next_pull_at > $2::timestamptz - interval '1 day'
   AND NOT EXISTS (SELECT 1 FROM erp_pull_runs r WHERE r.company_id = c.company_id AND r.connection_id = c.id AND r.status IN ('queued', 'running'));

-- dunning.record_failed_run
INSERT INTO dunning_runs (company_id, id, business_date, trigger, status, started_at, finished_at, duration_ms, errors)
VALUES ($1, $2, $3, $4, 'failed', $5, now(), $6, $7);

-- dunning.reminder_send_settings
SELECT c.stop_automatic_reminders AS stop, co.time_zone
 FROM customers c JOIN companies co ON co.id = c.company_id
WHERE c.company_id = $1 AND c.id = $2;

-- dunning.runs_count
SELECT count(*)::int AS n FROM dunning_runs WHERE company_id = $1;

-- dunning.runs_page
SELECT id, company_id, to_char(business_date, 'YYYY-MM-DD') AS business_date, trigger, status, started_at, finished_at,
duration_ms, transitions, reminders_created, fees_planned::text AS fees_planned, errors FROM dunning_runs WHERE company_id = $1 ORDER BY started_at DESC, id LIMIT $2 OFFSET $3;

-- dunning.save_policy
INSERT INTO dunning_policies (company_id, policy) VALUES ($1, $2)
ON CONFLICT (company_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = now();

-- dunning.scheduled_companies
-- across companies: the scheduler looks at every company for its run time
SELECT id, time_zone FROM companies;

-- dunning.set_base_rate
INSERT INTO base_interest_rates (valid_from, rate) VALUES ($1, $2) ON CONFLICT (valid_from) DO UPDATE SET rate = EXCLUDED.rate;

-- dunning.start_run
INSERT INTO dunning_runs (company_id, id, business_date, trigger, status, started_at) VALUES ($1, $2, $3, $4, 'running', $5);

