-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- invoice_list.batch (variant 1 of 7)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  coalesce(i.invoice_number, '')::text AS "sortKey"
 FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
  AND ($11::text IS NULL OR (coalesce(i.invoice_number, ''), i.id) < ($11::text::text, $12::uuid))
ORDER BY coalesce(i.invoice_number, '') DESC, i.id DESC
LIMIT $10;

-- invoice_list.batch (variant 2 of 7)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  lower(c.name)::text AS "sortKey"
 FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
  AND ($11::text IS NULL OR (lower(c.name), i.id) > ($11::text::text, $12::uuid))
ORDER BY lower(c.name) ASC, i.id ASC
LIMIT $10;

-- invoice_list.batch (variant 3 of 7)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  coalesce(i.invoice_date, '-infinity'::date)::text AS "sortKey"
 FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
  AND ($11::text IS NULL OR (coalesce(i.invoice_date, '-infinity'::date), i.id) < ($11::text::date, $12::uuid))
ORDER BY coalesce(i.invoice_date, '-infinity'::date) DESC, i.id DESC
LIMIT $10;

-- invoice_list.batch (variant 4 of 7)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  coalesce(i.due_date, 'infinity'::date)::text AS "sortKey"
 FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
  AND ($11::text IS NULL OR (coalesce(i.due_date, 'infinity'::date), i.id) > ($11::text::date, $12::uuid))
ORDER BY coalesce(i.due_date, 'infinity'::date) ASC, i.id ASC
LIMIT $10;

-- invoice_list.batch (variant 5 of 7)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS "sortKey"
 FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
  AND ($11::text IS NULL OR ((i.original_total + i.reminder_fees + i.default_interest + i.flat_fee), i.id) < ($11::text::numeric, $12::uuid))
ORDER BY (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee) DESC, i.id DESC
LIMIT $10;

-- invoice_list.batch (variant 6 of 7)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  i.open_amount::text AS "sortKey"
 FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
  AND ($11::text IS NULL OR (i.open_amount, i.id) > ($11::text::numeric, $12::uuid))
ORDER BY i.open_amount ASC, i.id ASC
LIMIT $10;

-- invoice_list.batch (variant 7 of 7)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  array_position(ARRAY['draft', 'sent', 'due', 'ready_for_reminder1', 'reminder1_sent', 'ready_for_reminder2', 'reminder2_sent', 'ready_for_reminder3', 'reminder3_sent', 'ready_for_dept_collection', 'sent_to_dept_collection', 'written_off', 'paid', 'archived', 'duplicate']::text[], i.status)::text AS "sortKey"
 FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
  AND ($11::text IS NULL OR (array_position(ARRAY['draft', 'sent', 'due', 'ready_for_reminder1', 'reminder1_sent', 'ready_for_reminder2', 'reminder2_sent', 'ready_for_reminder3', 'reminder3_sent', 'ready_for_dept_collection', 'sent_to_dept_collection', 'written_off', 'paid', 'archived', 'duplicate']::text[], i.status), i.id) < ($11::text::int, $12::uuid))
ORDER BY array_position(ARRAY['draft', 'sent', 'due', 'ready_for_reminder1', 'reminder1_sent', 'ready_for_reminder2', 'reminder2_sent', 'ready_for_reminder3', 'reminder3_sent', 'ready_for_dept_collection', 'sent_to_dept_collection', 'written_off', 'paid', 'archived', 'duplicate']::text[], i.status) DESC, i.id DESC
LIMIT $10;

-- invoice_list.count
SELECT count(*)::int AS count FROM invoices i WHERE i.company_id = $1
AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
AND ($6::date IS NULL OR i.due_date >= $6::date)
AND ($7::date IS NULL OR i.due_date <= $7::date)
AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
     OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)));

-- invoice_list.page (variant 1 of 8)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  coalesce(i.invoice_number, '')::text AS "sortKey"
 FROM (SELECT i.company_id, i.id
         FROM invoices i
        WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
        ORDER BY coalesce(i.invoice_number, '') DESC, i.id DESC
        LIMIT $10 OFFSET $11) p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.id
 JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
ORDER BY coalesce(i.invoice_number, '') DESC, i.id DESC;

-- invoice_list.page (variant 2 of 8)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  lower(c.name)::text AS "sortKey"
 FROM (SELECT i.company_id, i.id
         FROM invoices i JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
        WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
        ORDER BY lower(c.name) ASC, i.id ASC
        LIMIT $10 OFFSET $11) p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.id
 JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
ORDER BY lower(c.name) ASC, i.id ASC;

-- invoice_list.page (variant 3 of 8)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  coalesce(i.invoice_date, '-infinity'::date)::text AS "sortKey"
 FROM (SELECT i.company_id, i.id
         FROM invoices i
        WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
        ORDER BY coalesce(i.invoice_date, '-infinity'::date) DESC, i.id DESC
        LIMIT $10 OFFSET $11) p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.id
 JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
ORDER BY coalesce(i.invoice_date, '-infinity'::date) DESC, i.id DESC;

-- invoice_list.page (variant 4 of 8)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  coalesce(i.due_date, 'infinity'::date)::text AS "sortKey"
 FROM (SELECT i.company_id, i.id
         FROM invoices i
        WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
        ORDER BY coalesce(i.due_date, 'infinity'::date) ASC, i.id ASC
        LIMIT $10 OFFSET $11) p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.id
 JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
ORDER BY coalesce(i.due_date, 'infinity'::date) ASC, i.id ASC;

-- invoice_list.page (variant 5 of 8)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS "sortKey"
 FROM (SELECT i.company_id, i.id
         FROM invoices i
        WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
        ORDER BY (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee) DESC, i.id DESC
        LIMIT $10 OFFSET $11) p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.id
 JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
ORDER BY (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee) DESC, i.id DESC;

-- invoice_list.page (variant 6 of 8)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  i.open_amount::text AS "sortKey"
 FROM (SELECT i.company_id, i.id
         FROM invoices i
        WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
        ORDER BY i.open_amount ASC, i.id ASC
        LIMIT $10 OFFSET $11) p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.id
 JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
ORDER BY i.open_amount ASC, i.id ASC;

-- invoice_list.page (variant 7 of 8)
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
  c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
  i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
  array_position(ARRAY['draft', 'sent', 'due', 'ready_for_reminder1', 'reminder1_sent', 'ready_for_reminder2', 'reminder2_sent', 'ready_for_reminder3', 'reminder3_sent', 'ready_for_dept_collection', 'sent_to_dept_collection', 'written_off', 'paid', 'archived', 'duplicate']::text[], i.status)::text AS "sortKey"
 FROM (SELECT i.company_id, i.id
         FROM invoices i
        WHERE i.company_id = $1
  AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
  AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
  AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
  AND ($6::date IS NULL OR i.due_date >= $6::date)
  AND ($7::date IS NULL OR i.due_date <= $7::date)
  AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
       OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text)))
        ORDER BY array_position(ARRAY['draft', 'sent', 'due', 'ready_for_reminder1', 'reminder1_sent', 'ready_for_reminder2', 'reminder2_sent', 'ready_for_reminder3', 'reminder3_sent', 'ready_for_dept_collection', 'sent_to_dept_collection', 'written_off', 'paid', 'archived', 'duplicate']::text[], i.status) DESC, i.id DESC
        LIMIT $10 OFFSET $11) p
 JOIN invoices i ON i.company_id = p.company_id AND i.id = p.id
 JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
ORDER BY array_position(ARRAY['draft', 'sent', 'due', 'ready_for_reminder1', 'reminder1_sent', 'ready_for_reminder2', 'reminder2_sent', 'ready_for_reminder3', 'reminder3_sent', 'ready_for_dept_collection', 'sent_to_dept_collection', 'written_off', 'paid', 'archived', 'duplicate']::text[], i.status) DESC, i.id DESC;

-- invoice_list.page (variant 8 of 8)
WITH matches AS MATERIALIZED (SELECT i.* FROM invoices i WHERE i.company_id = $1
       AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
       AND ($3::date IS NULL OR (i.status = ANY($4::text[]) AND i.due_date < $3::date))
       AND ($5::uuid IS NULL OR i.customer_id = $5::uuid)
       AND ($6::date IS NULL OR i.due_date >= $6::date)
       AND ($7::date IS NULL OR i.due_date <= $7::date)
       AND ($8::text IS NULL OR i.invoice_number ILIKE $8::text OR i.external_id ILIKE $8::text
            OR i.customer_id = ANY (ARRAY(SELECT s.id FROM customers s WHERE s.company_id = $1 AND s.name ILIKE $9::text))))
SELECT i.id, i.invoice_number AS "invoiceNumber", i.external_id AS "externalId", i.customer_id AS "customerId",
       c.name AS "customerName", c.customer_number AS "customerNumber", i.invoice_date::text AS "invoiceDate",
       i.due_date::text AS "dueDate", (i.original_total + i.reminder_fees + i.default_interest + i.flat_fee)::text AS total, i.open_amount::text AS "openAmount", i.status,
       coalesce(i.invoice_date, '-infinity'::date)::text AS "sortKey"
      FROM (SELECT i.company_id, i.id
              FROM matches i

             ORDER BY coalesce(i.invoice_date, '-infinity'::date) DESC, i.id DESC
             LIMIT $10 OFFSET $11) p
      JOIN invoices i ON i.company_id = p.company_id AND i.id = p.id
      JOIN customers c ON c.company_id = i.company_id AND c.id = i.customer_id
     ORDER BY coalesce(i.invoice_date, '-infinity'::date) DESC, i.id DESC;

