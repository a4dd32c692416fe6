-- Generated from the statements declared in src/ (test/database/sql-files.e2e-spec.ts). Do not edit.

-- ledger.create_invoice (variant 1 of 2)
WITH created AS (INSERT INTO invoices ("company_id", "id", "external_id", "customer_id", "contact_id", "invoice_number", "additional_number", "status", "status_before_paid", "original_total", "reminder_fees", "default_interest", "flat_fee", "paid_amount", "open_amount", "net", "vat7", "vat19", "supply", "order_date", "invoice_date", "due_date", "time_for_payment", "source", "shipping_mode", "ignore_reminder_fees", "written_off_at", "waived_amount", "dunning_block_reason", "dunning_block_until", "pdf_key", "pdf_size", "pdf_sha256", "attachment_key", "attachment_size", "attachment_sha256", "pdf_active_content", "attachment_active_content", "created_at", "updated_at") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38, $39, $40)) INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details) VALUES ($41, $42, $43, $44, $45, $46, $47, $48, $49);

-- ledger.create_invoice (variant 2 of 2)
WITH created AS (INSERT INTO invoices ("company_id", "id", "external_id", "customer_id", "contact_id", "invoice_number", "additional_number", "status", "status_before_paid", "original_total", "reminder_fees", "default_interest", "flat_fee", "paid_amount", "open_amount", "net", "vat7", "vat19", "supply", "order_date", "invoice_date", "due_date", "time_for_payment", "source", "shipping_mode", "ignore_reminder_fees", "written_off_at", "waived_amount", "dunning_block_reason", "dunning_block_until", "pdf_key", "pdf_size", "pdf_sha256", "attachment_key", "attachment_size", "attachment_sha256", "pdf_active_content", "attachment_active_content", "created_at", "updated_at") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38, $39, $40)), settled AS (DELETE FROM pending_documents WHERE company_id = $41 AND id = $42) INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details) VALUES ($41, $42, $43, $44, $45, $46, $47, $48, $49);

-- ledger.dunning_move (variant 1 of 5)
WITH moved AS (
       UPDATE invoices i SET status = CASE WHEN $3::date - i.due_date >= 14 AND i.open_amount >= 0.00::numeric AND NOT ((SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
OR (i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date))) THEN 'ready_for_reminder1' ELSE 'due' END, updated_at = now()
        WHERE i.company_id = $1 AND i.status = 'sent' AND i.due_date + 0 < $3::date
       RETURNING i.id, i.status
     ), logged AS (
       INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason)
       SELECT $1, id, 'status_changed', from_status, to_status, 'run', $2, reason
         FROM (SELECT id, 'sent'::text AS from_status, 'due'::text AS to_status, $4::text AS reason, 1 AS hop FROM moved UNION ALL SELECT id, 'due', 'ready_for_reminder1', $5::text, 2 FROM moved WHERE status = 'ready_for_reminder1') e
        ORDER BY hop
     )
     SELECT '{}'::uuid[] AS ids, count(*)::int AS n, '{}'::uuid[] AS hop_ids, count(*) FILTER (WHERE status <> 'due')::int AS hop_n FROM moved;

-- ledger.dunning_move (variant 2 of 5)
WITH moved AS (
       UPDATE invoices i SET status = CASE WHEN $3::date - i.due_date >= 14 AND i.open_amount >= 0.00::numeric AND NOT ((SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
OR (i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date))) THEN 'ready_for_reminder1' ELSE 'due' END, updated_at = now()
        WHERE i.company_id = $1 AND i.status = 'sent' AND i.due_date + 0 < $3::date
       RETURNING i.id, i.status
     ), logged AS (
       INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason)
       SELECT $1, id, 'status_changed', from_status, to_status, 'run', $2, reason
         FROM (SELECT id, 'sent'::text AS from_status, 'due'::text AS to_status, $4::text AS reason, 1 AS hop FROM moved UNION ALL SELECT id, 'due', 'ready_for_reminder1', $5::text, 2 FROM moved WHERE status = 'ready_for_reminder1') e
        ORDER BY hop
     )
     SELECT coalesce(array_agg(id), '{}') AS ids, count(*)::int AS n, coalesce(array_agg(id) FILTER (WHERE status <> 'due'), '{}') AS hop_ids,
              count(*) FILTER (WHERE status <> 'due')::int AS hop_n FROM moved;

-- ledger.dunning_move (variant 3 of 5)
WITH moved AS (
       UPDATE invoices i SET status = 'ready_for_reminder2', updated_at = now()
        WHERE i.company_id = $1 AND i.status = 'reminder1_sent' AND $3::date - (SELECT r.reminder_date FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1) >= 14 AND i.open_amount >= 5.00::numeric AND NOT ((SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
OR (i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date)))
       RETURNING i.id, i.status
     ), logged AS (
       INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason)
       SELECT $1, id, 'status_changed', from_status, to_status, 'run', $2, reason
         FROM (SELECT id, 'reminder1_sent'::text AS from_status, 'ready_for_reminder2'::text AS to_status, $4::text AS reason, 1 AS hop FROM moved ) e
        ORDER BY hop
     )
     SELECT '{}'::uuid[] AS ids, count(*)::int AS n, '{}'::uuid[] AS hop_ids, count(*) FILTER (WHERE status <> 'ready_for_reminder2')::int AS hop_n FROM moved;

-- ledger.dunning_move (variant 4 of 5)
WITH moved AS (
       UPDATE invoices i SET status = 'ready_for_dept_collection', updated_at = now()
        WHERE i.company_id = $1 AND i.status = 'reminder3_sent' AND $3::date - (SELECT r.reminder_date FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 3) >= 14 AND NOT ((SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
OR (i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date)))
       RETURNING i.id, i.status
     ), logged AS (
       INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason)
       SELECT $1, id, 'status_changed', from_status, to_status, 'run', $2, reason
         FROM (SELECT id, 'reminder3_sent'::text AS from_status, 'ready_for_dept_collection'::text AS to_status, $4::text AS reason, 1 AS hop FROM moved ) e
        ORDER BY hop
     )
     SELECT '{}'::uuid[] AS ids, count(*)::int AS n, '{}'::uuid[] AS hop_ids, count(*) FILTER (WHERE status <> 'ready_for_dept_collection')::int AS hop_n FROM moved;

-- ledger.dunning_move (variant 5 of 5)
WITH moved AS (
       UPDATE invoices i SET status = 'due', updated_at = now()
        WHERE i.company_id = $1 AND i.status = 'ready_for_reminder1' AND NOT EXISTS (SELECT 1 FROM reminders r WHERE r.company_id = i.company_id AND r.invoice_id = i.id AND r.reminder_stage = 1) AND (((SELECT c.stop_automatic_reminders FROM customers c WHERE c.company_id = i.company_id AND c.id = i.customer_id)
OR (i.dunning_block_reason IS NOT NULL AND (i.dunning_block_until IS NULL OR i.dunning_block_until >= $3::date))) OR i.open_amount < 5.00::numeric)
       RETURNING i.id, i.status
     ), logged AS (
       INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason)
       SELECT $1, id, 'status_changed', from_status, to_status, 'run', $2, reason
         FROM (SELECT id, 'ready_for_reminder1'::text AS from_status, 'due'::text AS to_status, $4::text AS reason, 1 AS hop FROM moved ) e
        ORDER BY hop
     )
     SELECT '{}'::uuid[] AS ids, count(*)::int AS n, '{}'::uuid[] AS hop_ids, count(*) FILTER (WHERE status <> 'due')::int AS hop_n FROM moved;

-- ledger.pull_record_clearings
WITH cleared AS (SELECT * FROM unnest($3::text[], $4::text[], $5::date[]) AS t(external_id, document, cleared_on)),
target AS (
  SELECT i.id, i.external_id, i.open_amount, c.document, c.cleared_on
    FROM cleared c
    JOIN LATERAL (
      SELECT x.id, x.external_id, x.open_amount FROM invoices x
       WHERE x.company_id = $1 AND lower(x.external_id) = lower(c.external_id) AND x.external_id IS NOT NULL
         AND x.status NOT IN ('archived', 'duplicate') AND x.open_amount > 0
         FOR UPDATE
    ) i ON true
),
paid AS (
  INSERT INTO payments (company_id, id, invoice_id, external_id, amount, payment_date, note, source, inkasso_payment, created_at, updated_at)
  SELECT $1, gen_random_uuid(), t.id, $6 || coalesce(t.document, '') || '-' || t.external_id, t.open_amount,
         coalesce(t.cleared_on, current_date), 'Cleared in the ERP' || coalesce(' by document ' || t.document, ''), 'ERP', false, now(), now()
    FROM target t
  ON CONFLICT (company_id, lower(external_id)) WHERE external_id IS NOT NULL DO NOTHING
  RETURNING id, invoice_id, amount
),
booked AS (
  UPDATE invoices i SET paid_amount = (i.paid_amount + (p.amount)), open_amount = i.original_total + i.reminder_fees + i.default_interest + i.flat_fee - (i.paid_amount + (p.amount)) - i.waived_amount, updated_at = now()
    FROM paid p WHERE i.company_id = $1 AND i.id = p.invoice_id
  RETURNING i.id
),
events AS (
  INSERT INTO invoice_events (company_id, invoice_id, kind, actor_type, actor_id, reason, details)
  SELECT $1, p.invoice_id, 'payment_recorded', 'erp_pull', $2, 'cleared in the ERP',
         jsonb_build_object('payment_id', p.id, 'amount', p.amount, 'pull_run', $2::text)
    FROM paid p
)
SELECT count(*)::int AS payments FROM paid;

-- ledger.pull_remove_reset_clearings
WITH removed AS (
  DELETE FROM payments p USING invoices i
   WHERE i.company_id = $1 AND lower(i.external_id) = ANY ($3::text[]) AND i.status = 'paid'
     AND p.company_id = $1 AND p.invoice_id = i.id AND p.source = 'ERP' AND p.external_id LIKE $4 || '%'
  RETURNING p.id, p.invoice_id, p.amount
),
sums AS (SELECT invoice_id, sum(amount) AS amount FROM removed GROUP BY invoice_id),
booked AS (
  UPDATE invoices i SET paid_amount = (i.paid_amount + (-s.amount)), open_amount = i.original_total + i.reminder_fees + i.default_interest + i.flat_fee - (i.paid_amount + (-s.amount)) - i.waived_amount, updated_at = now()
    FROM sums s WHERE i.company_id = $1 AND i.id = s.invoice_id
  RETURNING i.id
),
events AS (
  INSERT INTO invoice_events (company_id, invoice_id, kind, actor_type, actor_id, reason, details)
  SELECT $1, r.invoice_id, 'payment_deleted', 'erp_pull', $2, 'the clearing was reset in the ERP',
         jsonb_build_object('payment_id', r.id, 'amount', r.amount, 'pull_run', $2::text)
    FROM removed r
)
SELECT invoice_id FROM sums;

-- ledger.pull_reopen
WITH target AS (
  SELECT i.id, i.status, i.status_before_paid FROM invoices i
   WHERE i.company_id = $1 AND i.status = ANY ($3::text[]) AND i.id = ANY ($4::uuid[]) AND i.open_amount > 0
   ORDER BY i.id
     FOR UPDATE
),
moved AS (
  UPDATE invoices i SET status = coalesce(t.status_before_paid, 'sent'), status_before_paid = NULL, updated_at = now()
    FROM target t WHERE i.company_id = $1 AND i.id = t.id
  RETURNING i.id, t.status AS from_status, i.status AS to_status
),
events AS (
  INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details)
  SELECT $1, id, 'status_changed', from_status, to_status, 'erp_pull', $2, $5, $6::jsonb
    FROM moved
)
SELECT count(*)::int AS moved FROM moved;

-- ledger.pull_settle
WITH target AS (
  SELECT i.id, i.status, i.status_before_paid FROM invoices i
   WHERE i.company_id = $1 AND i.status = ANY ($3::text[]) AND lower(i.external_id) = ANY ($4::text[]) AND i.external_id IS NOT NULL AND i.open_amount <= 0
   ORDER BY i.id
     FOR UPDATE
),
moved AS (
  UPDATE invoices i SET status = 'paid', status_before_paid = t.status, updated_at = now()
    FROM target t WHERE i.company_id = $1 AND i.id = t.id
  RETURNING i.id, t.status AS from_status, i.status AS to_status
),
events AS (
  INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason, details)
  SELECT $1, id, 'status_changed', from_status, to_status, 'erp_pull', $2, $5, $6::jsonb
    FROM moved
)
SELECT count(*)::int AS moved FROM moved;

-- ledger.pull_upsert_invoices
WITH input AS (
     SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::date[], $9::date[], $10::int[], $11::text[], $12::bool[], $15::text[], $17::uuid[])
       WITH ORDINALITY AS t(external_id, customer, invoice_number, additional_number, total, invoice_date, due_date, time_for_payment, block, cleared, erp_key, id, n)
   ),
   resolved AS (
     -- Whether the invoice exists matters only for cleared items: only they are probed.
     SELECT t.*, c.id AS customer_id,
            CASE WHEN t.cleared THEN EXISTS (SELECT x.id FROM invoices x WHERE x.company_id = $1 AND lower(x.external_id) = lower(t.external_id) AND x.external_id IS NOT NULL LIMIT 1) ELSE false END AS existed
       FROM input t
       LEFT JOIN LATERAL (SELECT x.id FROM customers x WHERE x.company_id = $1 AND lower(x.external_id) = lower(t.customer) AND x.external_id IS NOT NULL LIMIT 1) c ON true
   ),
   upserted AS (
     INSERT INTO invoices AS i (company_id, id, external_id, customer_id, invoice_number, additional_number, status, original_total, reminder_fees, default_interest, flat_fee, paid_amount, open_amount, invoice_date, due_date, time_for_payment, source, shipping_mode, ignore_reminder_fees, waived_amount, dunning_block_reason, pdf_active_content, attachment_active_content, created_at, updated_at)
     SELECT $1, r.id, r.external_id, r.customer_id, r.invoice_number, r.additional_number, 'sent', r.total, 0, 0, 0, 0, r.total, r.invoice_date, r.due_date, r.time_for_payment, 'ERP', 'skip_shipping', false, 0, r.block, false, false, now(), now()
       FROM resolved r
      WHERE r.customer_id IS NOT NULL AND (NOT r.cleared OR r.existed)
      ORDER BY r.n
     ON CONFLICT (company_id, lower(external_id)) WHERE external_id IS NOT NULL DO UPDATE SET
       customer_id = EXCLUDED.customer_id,
       invoice_number = EXCLUDED.invoice_number,
       additional_number = EXCLUDED.additional_number,
       original_total = EXCLUDED.original_total,
       open_amount = EXCLUDED.original_total + i.reminder_fees + i.default_interest + i.flat_fee - i.paid_amount - i.waived_amount,
       invoice_date = EXCLUDED.invoice_date,
       due_date = EXCLUDED.due_date,
       time_for_payment = EXCLUDED.time_for_payment,
       dunning_block_reason = CASE WHEN EXCLUDED.dunning_block_reason IS NOT NULL THEN EXCLUDED.dunning_block_reason
                    WHEN i.dunning_block_reason LIKE 'ERP dunning block%' THEN NULL
                    ELSE i.dunning_block_reason END,
       updated_at = now()
     WHERE (i.customer_id, i.invoice_number, i.additional_number, i.original_total, i.invoice_date, i.due_date,
            i.time_for_payment, i.dunning_block_reason)
           IS DISTINCT FROM
           (EXCLUDED.customer_id, EXCLUDED.invoice_number, EXCLUDED.additional_number,
            EXCLUDED.original_total, EXCLUDED.invoice_date, EXCLUDED.due_date, EXCLUDED.time_for_payment, CASE WHEN EXCLUDED.dunning_block_reason IS NOT NULL THEN EXCLUDED.dunning_block_reason
                    WHEN i.dunning_block_reason LIKE 'ERP dunning block%' THEN NULL
                    ELSE i.dunning_block_reason END)
     RETURNING i.id, lower(i.external_id) AS key, (xmax = 0) AS inserted
   ),
   events AS (
     INSERT INTO invoice_events (company_id, invoice_id, kind, to_status, actor_type, actor_id, reason, details)
     SELECT $1, u.id, CASE WHEN u.inserted THEN 'created' ELSE 'updated' END, CASE WHEN u.inserted THEN 'sent' END,
            'erp_pull', $2, 'pulled from the ERP', $13::jsonb
       FROM upserted u
   ),
   owned AS (
     -- Which connection pulled the invoice, under which ERP key: what a reconciliation asks the ERP by.
     INSERT INTO erp_pulled_invoices AS p (company_id, invoice_id, connection_id, erp_key, seen_run)
     SELECT $1, u.id, $14, r.erp_key::jsonb, $16::uuid FROM upserted u JOIN resolved r ON lower(r.external_id) = u.key
     ON CONFLICT (company_id, invoice_id) DO UPDATE SET connection_id = EXCLUDED.connection_id, erp_key = EXCLUDED.erp_key,
       seen_run = coalesce(EXCLUDED.seen_run, p.seen_run)
     WHERE (p.connection_id, p.erp_key) IS DISTINCT FROM (EXCLUDED.connection_id, EXCLUDED.erp_key) OR EXCLUDED.seen_run IS NOT NULL
   )
   SELECT (SELECT string_agg(n::text, ',') FROM resolved WHERE customer_id IS NULL) AS missing,
          (SELECT string_agg(n::text, ',') FROM resolved WHERE customer_id IS NOT NULL AND cleared AND NOT existed) AS cleared_unknown,
          (SELECT string_agg(CASE WHEN inserted THEN 'n' ELSE 'u' END || key, E'
') FROM upserted) AS written;

-- ledger.update_money_many
-- across companies: a push batch books payments on invoices of the companies its documents name; each row pairs an id with its company
UPDATE invoices i SET original_total = t.original_total, reminder_fees = t.reminder_fees, default_interest = t.default_interest, flat_fee = t.flat_fee, paid_amount = t.paid_amount, waived_amount = t.waived_amount, open_amount = t.open_amount, updated_at = now()
 FROM unnest($1::uuid[], $2::uuid[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[], $9::numeric[])
      AS t(company_id, id, original_total, reminder_fees, default_interest, flat_fee, paid_amount, waived_amount, open_amount)
WHERE i.company_id = t.company_id AND i.id = t.id;

