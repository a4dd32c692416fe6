-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- interest.charge_reminders
WITH added AS (
  INSERT INTO interest_lines (company_id, invoice_id, reminder_id, kind, from_day, until_day, days, principal, base_rate, points, amount)
  SELECT r.company_id, r.invoice_id, r.id, 'interest', l.from_day, l.until_day, l.days, l.principal, l.base_rate, l.points, l.amount
    FROM reminders r
    JOIN invoices i ON i.company_id = r.company_id AND i.id = r.invoice_id
    JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
    CROSS JOIN LATERAL (SELECT min(d.day) AS from_day, max(d.day) AS until_day, count(*)::int AS days, d.principal, d.base_rate, (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END) AS points,
               round(d.principal * (d.base_rate + (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END)) * count(*) / 36500, 2) AS amount
          FROM (SELECT x.day, x.principal, x.base_rate, x.day - (row_number() OVER (PARTITION BY x.principal, x.base_rate ORDER BY x.day))::int AS island
                  FROM default_interest_days(i.company_id, i.id, least(
 (SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
 CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END), r.interest_until, (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END)) x
                 WHERE x.day >= r.interest_from AND x.principal > 0) d
         GROUP BY d.principal, d.base_rate, d.island) l
   WHERE r.company_id = $1 AND r.id = ANY($2::uuid[]) AND r.interest_from IS NOT NULL
  RETURNING reminder_id, amount)
UPDATE reminders r SET default_interest = s.amount
  FROM (SELECT reminder_id, sum(amount) AS amount FROM added GROUP BY reminder_id) s
 WHERE r.company_id = $1 AND r.id = s.reminder_id
RETURNING r.id, r.default_interest::text;

-- interest.correct
WITH charged AS (
  SELECT g::date AS day, sum(l.principal) AS principal, max(l.base_rate) AS base_rate, max(l.points) AS points,
         (array_agg(l.id) FILTER (WHERE l.kind = 'interest'))[1] AS line
    FROM interest_lines l CROSS JOIN LATERAL generate_series(l.from_day, l.until_day, interval '1 day') g
   WHERE l.company_id = $1 AND l.invoice_id = $2
     AND (l.reminder_id IS NULL OR EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = l.company_id AND r.id = l.reminder_id AND r.dispatched_at IS NOT NULL))
   GROUP BY 1),
owed AS (
  SELECT x.day, x.principal
    FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
    CROSS JOIN LATERAL default_interest_days(i.company_id, i.id, least(
 (SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
 CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END), (SELECT max(day) FROM charged), (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END)) x
   WHERE i.company_id = $1 AND i.id = $2),
delta AS (
  SELECT ch.day, o.principal - ch.principal AS principal, ch.base_rate, ch.points, ch.line,
         ch.day - (row_number() OVER (PARTITION BY o.principal - ch.principal, ch.base_rate, ch.points, ch.line ORDER BY ch.day))::int AS island
    FROM charged ch JOIN owed o ON o.day = ch.day
   WHERE o.principal <> ch.principal),
added AS (
  INSERT INTO interest_lines (company_id, invoice_id, reminder_id, kind, from_day, until_day, days, principal, base_rate, points, amount)
  SELECT $1, $2, NULL, 'correction', min(day), max(day), count(*), principal, base_rate, points,
         round(principal * (base_rate + points) * count(*) / 36500, 2)
    FROM delta GROUP BY principal, base_rate, points, line, island
  RETURNING *)
SELECT l.kind, to_char(l.from_day, 'YYYY-MM-DD') AS "from", to_char(l.until_day, 'YYYY-MM-DD') AS until, l.days,
       l.principal::text AS principal, l.base_rate::text AS "baseRate", l.points::int AS points, l.amount::text AS amount, l.reminder_id AS "reminderId" FROM added l ORDER BY l.from_day;

-- interest.lines
SELECT l.kind, to_char(l.from_day, 'YYYY-MM-DD') AS "from", to_char(l.until_day, 'YYYY-MM-DD') AS until, l.days,
      l.principal::text AS principal, l.base_rate::text AS "baseRate", l.points::int AS points, l.amount::text AS amount, l.reminder_id AS "reminderId"
 FROM interest_lines l
WHERE l.company_id = $1 AND l.invoice_id = $2 AND ($3::uuid IS NULL OR l.reminder_id = $3)
ORDER BY l.from_day, l.created_at, l.kind;

-- interest.record_until
WITH added AS (
  INSERT INTO interest_lines (company_id, invoice_id, reminder_id, kind, from_day, until_day, days, principal, base_rate, points, amount)
  SELECT i.company_id, i.id, NULL, 'interest', l.from_day, l.until_day, l.days, l.principal, l.base_rate, l.points, l.amount
    FROM invoices i
    JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
    CROSS JOIN LATERAL (SELECT (SELECT CASE WHEN s.since IS NOT NULL THEN greatest(s.since, (SELECT max(l.until_day) FROM interest_lines l
 WHERE l.company_id = i.company_id AND l.invoice_id = i.id AND l.kind = 'interest'
   AND (l.reminder_id IS NULL OR EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = l.company_id AND r.id = l.reminder_id AND r.dispatched_at IS NOT NULL))) + 1) END FROM (SELECT (CASE WHEN coalesce((SELECT p.policy->>'defaultInterest' FROM dunning_policies p WHERE p.company_id = i.company_id)::boolean, false) AND NOT i.ignore_reminder_fees THEN least(
 (SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
 CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END) END) AS since) s) AS next_day) n
    CROSS JOIN LATERAL (SELECT min(d.day) AS from_day, max(d.day) AS until_day, count(*)::int AS days, d.principal, d.base_rate, (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END) AS points,
               round(d.principal * (d.base_rate + (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END)) * count(*) / 36500, 2) AS amount
          FROM (SELECT x.day, x.principal, x.base_rate, x.day - (row_number() OVER (PARTITION BY x.principal, x.base_rate ORDER BY x.day))::int AS island
                  FROM default_interest_days(i.company_id, i.id, least(
 (SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
 CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END), $3::date, (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END)) x
                 WHERE x.day >= n.next_day AND x.principal > 0) d
         GROUP BY d.principal, d.base_rate, d.island) l
   WHERE i.company_id = $1 AND i.id = $2 AND n.next_day <= $3::date
  RETURNING *)
SELECT l.kind, to_char(l.from_day, 'YYYY-MM-DD') AS "from", to_char(l.until_day, 'YYYY-MM-DD') AS until, l.days,
       l.principal::text AS principal, l.base_rate::text AS "baseRate", l.points::int AS points, l.amount::text AS amount, l.reminder_id AS "reminderId" FROM added l ORDER BY l.from_day;

-- interest.state
SELECT i.id, CASE WHEN s.since <= t.today THEN to_char(s.since, 'YYYY-MM-DD') END AS "default_since",
      coalesce((SELECT sum(l.amount) FROM (SELECT min(d.day) AS from_day, max(d.day) AS until_day, count(*)::int AS days, d.principal, d.base_rate, (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END) AS points,
              round(d.principal * (d.base_rate + (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END)) * count(*) / 36500, 2) AS amount
         FROM (SELECT x.day, x.principal, x.base_rate, x.day - (row_number() OVER (PARTITION BY x.principal, x.base_rate ORDER BY x.day))::int AS island
                 FROM default_interest_days(i.company_id, i.id, (CASE WHEN coalesce((SELECT p.policy->>'defaultInterest' FROM dunning_policies p WHERE p.company_id = i.company_id)::boolean, false) AND NOT i.ignore_reminder_fees THEN least(
(SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END) END), t.today, (CASE c.customer_type WHEN 'consumer' THEN 5 ELSE 9 END)) x
                WHERE x.day >= s.next_day AND x.principal > 0) d
        GROUP BY d.principal, d.base_rate, d.island) l WHERE s.next_day <= t.today AND i.open_amount > 0), 0)::text AS "accrued"
 FROM invoices i
 JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
 CROSS JOIN LATERAL (SELECT coalesce($3::date, (SELECT (now() AT TIME ZONE co.time_zone)::date FROM companies co WHERE co.id = i.company_id)) AS today) t
 CROSS JOIN LATERAL (SELECT least(
(SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END) AS since, (SELECT CASE WHEN s.since IS NOT NULL THEN greatest(s.since, (SELECT max(l.until_day) FROM interest_lines l
WHERE l.company_id = i.company_id AND l.invoice_id = i.id AND l.kind = 'interest'
  AND (l.reminder_id IS NULL OR EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = l.company_id AND r.id = l.reminder_id AND r.dispatched_at IS NOT NULL))) + 1) END FROM (SELECT (CASE WHEN coalesce((SELECT p.policy->>'defaultInterest' FROM dunning_policies p WHERE p.company_id = i.company_id)::boolean, false) AND NOT i.ignore_reminder_fees THEN least(
(SELECT r.pay_by + 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1 AND r.dispatched_at IS NOT NULL),
CASE WHEN c.customer_type = 'business' AND (SELECT p.policy->>'defaultStarts' FROM dunning_policies p WHERE p.company_id = i.company_id) = 'thirty_days_business' THEN i.due_date + 31 END) END) AS since) s) AS next_day) s
WHERE i.company_id = $1 AND i.id = ANY($2::uuid[]);

