// The statements of the pull's set-based upserts (PullUpsertsRepository). What the invoice upsert writes
// to invoices is the ledger's: new invoices from its record (newInvoiceSql), the open amount by its rule
// (openAmountSql), hence its ledger.* name. Clearings are booked by the ledger (PullLedger).
import { statement } from '../../database/sql/statement.js';
import { openAmountSql } from '../../invoices/ledger/money.js';
import { newInvoiceSql } from '../../invoices/ledger/new-invoice.js';
import { ERP_BLOCK_PREFIX } from '../mapping/erp-record-mapper.js';

/**
 * The id of the company's record with this external_id, as one probe of the case-insensitive unique
 * index per input row: a join would let the planner scan all of the company's rows per batch when its
 * statistics lag behind a table the pull is filling.
 */
export const byExternalId = (table: 'customers' | 'contacts' | 'invoices', value: string) =>
  `SELECT x.id FROM ${table} x WHERE x.company_id = $1 AND lower(x.external_id) = lower(${value}) AND x.external_id IS NOT NULL LIMIT 1`;

// A dunning block set by the ERP follows the ERP; one set in the service stays.
const BLOCK = `CASE WHEN EXCLUDED.dunning_block_reason IS NOT NULL THEN EXCLUDED.dunning_block_reason
                    WHEN i.dunning_block_reason LIKE '${ERP_BLOCK_PREFIX}%' THEN NULL
                    ELSE i.dunning_block_reason END`;

/** A new pulled invoice: the ledger's record (newInvoiceSql) from a resolved input row `r`. */
const NEW_INVOICE = newInvoiceSql({
  companyId: '$1',
  id: 'r.id',
  externalId: 'r.external_id',
  customerId: 'r.customer_id',
  invoiceNumber: 'r.invoice_number',
  additionalNumber: 'r.additional_number',
  // The ERP has sent them: they enter the cycle as sent, shipped by the ERP.
  status: `'sent'`,
  total: 'r.total',
  invoiceDate: 'r.invoice_date',
  dueDate: 'r.due_date',
  timeForPayment: 'r.time_for_payment',
  source: `'ERP'`,
  shippingMode: `'skip_shipping'`,
  dunningBlockReason: 'r.block',
  createdAt: 'now()',
  updatedAt: 'now()',
});

export const UPSERT_CUSTOMERS = statement<{ key: string; inserted: boolean }>('erp_pull.upsert_customers', `WITH input AS (
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
   RETURNING lower(c.external_id) AS key, (xmax = 0) AS inserted`, { plan: 'custom' });
export const UPSERT_CONTACTS = statement<{ key: string }>('erp_pull.upsert_contacts', `WITH input AS (SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(external_id, name, phone, email))
   INSERT INTO contacts AS k (company_id, id, customer_id, external_id, name, phone, gender, salutation, email, created_at, updated_at)
   SELECT $1, gen_random_uuid(), c.id, $6 || t.external_id, t.name, t.phone, 0, 0, t.email, now(), now()
     FROM input t
     JOIN LATERAL (${byExternalId('customers', 't.external_id')}) c ON true
    WHERE t.email IS NOT NULL OR EXISTS (${byExternalId('contacts', '$6 || t.external_id')})
    ORDER BY lower(t.external_id)
   ON CONFLICT (company_id, lower(external_id)) WHERE external_id IS NOT NULL DO UPDATE SET
     customer_id = EXCLUDED.customer_id, name = EXCLUDED.name, phone = EXCLUDED.phone, email = EXCLUDED.email, updated_at = now()
   WHERE (k.customer_id, k.name, k.phone, k.email) IS DISTINCT FROM (EXCLUDED.customer_id, EXCLUDED.name, EXCLUDED.phone, EXCLUDED.email)
   RETURNING lower(substr(k.external_id, length($6) + 1)) AS key`, { plan: 'custom' });
export const UPSERT_INVOICES = statement<{ missing: string | null; cleared_unknown: string | null; written: string | null }>(
  'ledger.pull_upsert_invoices',
  () => `WITH input AS (
     SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::date[], $9::date[], $10::int[], $11::text[], $12::bool[], $15::text[], $17::uuid[])
       WITH ORDINALITY AS t(external_id, customer, invoice_number, additional_number, total, invoice_date, due_date, time_for_payment, block, cleared, erp_key, id, n)
   ),
   resolved AS (
     -- Whether the invoice exists matters only for cleared items: only they are probed.
     SELECT t.*, c.id AS customer_id,
            CASE WHEN t.cleared THEN EXISTS (${byExternalId('invoices', 't.external_id')}) ELSE false END AS existed
       FROM input t
       LEFT JOIN LATERAL (${byExternalId('customers', 't.customer')}) c ON true
   ),
   upserted AS (
     INSERT INTO invoices AS i (${NEW_INVOICE.columns})
     SELECT ${NEW_INVOICE.values}
       FROM resolved r
      WHERE r.customer_id IS NOT NULL AND (NOT r.cleared OR r.existed)
      ORDER BY r.n
     ON CONFLICT (company_id, lower(external_id)) WHERE external_id IS NOT NULL DO UPDATE SET
       customer_id = EXCLUDED.customer_id,
       invoice_number = EXCLUDED.invoice_number,
       additional_number = EXCLUDED.additional_number,
       original_total = EXCLUDED.original_total,
       open_amount = ${openAmountSql('i', { originalTotal: 'EXCLUDED.original_total' })},
       invoice_date = EXCLUDED.invoice_date,
       due_date = EXCLUDED.due_date,
       time_for_payment = EXCLUDED.time_for_payment,
       dunning_block_reason = ${BLOCK},
       updated_at = now()
     WHERE (i.customer_id, i.invoice_number, i.additional_number, i.original_total, i.invoice_date, i.due_date,
            i.time_for_payment, i.dunning_block_reason)
           IS DISTINCT FROM
           (EXCLUDED.customer_id, EXCLUDED.invoice_number, EXCLUDED.additional_number,
            EXCLUDED.original_total, EXCLUDED.invoice_date, EXCLUDED.due_date, EXCLUDED.time_for_payment, ${BLOCK})
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
          (SELECT string_agg(CASE WHEN inserted THEN 'n' ELSE 'u' END || key, E'\n') FROM upserted) AS written`,
  { plan: 'custom' },
);
