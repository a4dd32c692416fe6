-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

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

