-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- push.ledger_entry_by_external_id
SELECT id, invoice_id, amount::text AS amount, payment_date::text AS payment_date, note, inkasso_payment, source
FROM payments WHERE company_id = $1 AND lower(external_id) = lower($2);

-- push.ledger_lookup
SELECT t.n, i.id AS found_invoice_id,
     p.id, p.invoice_id, p.amount::text AS amount, p.payment_date::text AS payment_date, p.note, p.inkasso_payment, p.source
FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS t(company_id, invoice_external_id, entry_external_id, n)
LEFT JOIN invoices i ON i.company_id = t.company_id AND lower(i.external_id) = lower(t.invoice_external_id)
LEFT JOIN payments p ON p.company_id = t.company_id AND lower(p.external_id) = lower(t.entry_external_id);

