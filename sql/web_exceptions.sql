-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- web_exceptions.blocked_page
SELECT i.id, i.invoice_number AS "invoiceNumber", i.status, i.open_amount::text AS "openAmount", c.id AS "customerId", c.name AS "customerName",
        CASE WHEN i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date)
             THEN i.dunning_block_reason END AS reason,
        CASE WHEN i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date)
             THEN to_char(i.dunning_block_until, 'YYYY-MM-DD') END AS until,
        count(*) OVER ()::int AS total
   FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
  WHERE i.company_id = $1 AND i.status = ANY($2::text[]) AND ((SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
OR (i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date)))
  ORDER BY i.dunning_block_until NULLS LAST, i.due_date, i.id
  LIMIT $4 OFFSET $5;

-- web_exceptions.shipment_parties
SELECT i.id AS "invoiceId", i.invoice_number AS "invoiceNumber", r.id AS "reminderId", r.reminder_stage AS "reminderStage",
     c.id AS "customerId", c.name AS "customerName", c.address_line1 AS "addressLine1", c.address_line2 AS "addressLine2",
     c.address_line3 AS "addressLine3", c.address_line4 AS "addressLine4", c.zip, c.city, c.country_code AS "countryCode",
     p.id AS "contactId", p.name AS "contactName", p.email AS "contactEmail"
FROM unnest($2::uuid[], $3::uuid[]) AS s(invoice_id, reminder_id)
JOIN invoices i ON i.company_id = $1 AND i.id = s.invoice_id
JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
LEFT JOIN reminders r ON r.company_id = i.company_id AND r.invoice_id = i.id AND r.id = s.reminder_id
LEFT JOIN LATERAL (
  SELECT k.id, k.name, k.email FROM contacts k
   WHERE k.company_id = i.company_id AND k.customer_id = i.customer_id
   ORDER BY k.id = i.contact_id DESC NULLS LAST, k.created_at, k.id LIMIT 1) p ON true;

