-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- payments.find_by_external_id
SELECT p."company_id" AS "companyId", p."id" AS "id", p."invoice_id" AS "invoiceId", p."external_id" AS "externalId", p."amount" AS "amount", p."payment_date" AS "paymentDate", p."note" AS "note", p."source" AS "source", p."inkasso_payment" AS "inkassoPayment", p."created_at" AS "createdAt", p."updated_at" AS "updatedAt" FROM payments p WHERE p.company_id = $1 AND lower(p.external_id) = lower($2);

-- payments.insert_many
INSERT INTO payments (company_id, id, invoice_id, external_id, amount, payment_date, note, source, inkasso_payment, created_at, updated_at)
SELECT company_id, id, invoice_id, external_id, amount, payment_date, note, source, inkasso_payment, clock_timestamp(), clock_timestamp()
  FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::numeric[], $6::date[], $7::text[], $8::text[], $9::bool[])
       WITH ORDINALITY AS t(company_id, id, invoice_id, external_id, amount, payment_date, note, source, inkasso_payment, n)
 ORDER BY n
ON CONFLICT DO NOTHING
RETURNING id;

-- payments.sum
SELECT coalesce(sum(amount), 0)::text AS total FROM payments WHERE company_id = $1 AND invoice_id = $2;

-- payments.sums
SELECT p.invoice_id, sum(p.amount)::text AS total
 FROM payments p JOIN unnest($1::uuid[], $2::uuid[]) AS t(company_id, id) ON p.company_id = t.company_id AND p.invoice_id = t.id
GROUP BY p.invoice_id;

