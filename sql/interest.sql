-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- interest.lines
SELECT 'interest' AS kind, to_char(r.interest_from, 'YYYY-MM-DD') AS "from", to_char(r.interest_until, 'YYYY-MM-DD') AS until,
      (r.interest_until - r.interest_from + 1) AS days, i.original_total::text AS principal,
      coalesce((SELECT b.rate FROM base_interest_rates b WHERE b.valid_from <= r.interest_from ORDER BY b.valid_from DESC LIMIT 1), 0)::text AS "baseRate",
      r.interest_points::int AS points, r.default_interest::text AS amount, r.id AS "reminderId"
 FROM reminders r JOIN invoices i ON i.company_id = r.company_id AND i.id = r.invoice_id
WHERE r.company_id = $1 AND r.invoice_id = $2 AND ($3::uuid IS NULL OR r.id = $3) AND r.default_interest <> 0 AND r.interest_from IS NOT NULL
ORDER BY r.interest_from;

