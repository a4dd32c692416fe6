// Seeds the invoices-read bench with SQL (generate_series, as web.seed.ts): one company with an API
// token and 100,000 invoices of 2,000 customers (one contact each, named on every other invoice) over
// three years and every stage (the web seed's statuses); a third paid with their payments, a part
// paid partly; reminders 1–3 sent (fees, § 288 interest and flat fee on reminder 2) for the invoices in
// the reminder and collection stages, which are then in default; the dunning policy charges default
// interest, so an invoice in default shows accrued interest (computed at every read).
import pg from 'pg';
import { DEFAULT_POLICY } from '../../src/companies/dunning-policy.js';
import { hashSecret, newSecret } from '../../src/auth/secrets.js';
import { newUuid, toPublicId } from '../../src/common/ids.js';
import { CUSTOMERS, INVOICES, STATUSES } from './web.seed.js';

export interface InvoicesReadSeed {
  token: string;
  /** Invoices to read by id: the loaded one first (in default, with payments, reminders and a contact), then others to check. */
  invoiceIds: string[];
}

/** The reminders already sent by status. */
const REMINDERS_SENT = `CASE i.status WHEN 'reminder1_sent' THEN 1 WHEN 'reminder2_sent' THEN 2 WHEN 'reminder3_sent' THEN 3
  WHEN 'ready_for_dept_collection' THEN 3 WHEN 'sent_to_dept_collection' THEN 3 ELSE 0 END`;

export async function seedInvoicesRead(databaseUrl: string): Promise<InvoicesReadSeed> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN');
    const companyId = newUuid();
    await db.query(`INSERT INTO companies (id, name, time_zone) VALUES ($1, 'Bench Handels GmbH', 'Europe/Berlin')`, [companyId]);
    const token = newSecret('token');
    await db.query(`INSERT INTO api_tokens (company_id, id, name, token_hash) VALUES ($1, $2, 'bench', $3)`, [
      companyId,
      newUuid(),
      hashSecret(token),
    ]);
    await db.query(`INSERT INTO dunning_policies (company_id, policy) VALUES ($1, $2)`, [
      companyId,
      JSON.stringify({ ...DEFAULT_POLICY, defaultInterest: true, businessFlatFee: true }),
    ]);
    await db.query(
      `INSERT INTO customers (company_id, id, external_id, customer_number, name, address_line1, address_line2, address_line3, zip, city,
                              country_code, customer_type, created_at, updated_at)
       SELECT $1, gen_random_uuid(), 'K-' || k, lpad(k::text, 6, '0'),
              (ARRAY['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker'])[1 + k % 8] || ' ' || k || ' GmbH',
              'Hauptstraße ' || k, CASE WHEN k % 2 = 0 THEN 'z. Hd. Buchhaltung' END, 'Hauptstraße ' || k, '10115', 'Berlin', 'DE',
              CASE WHEN k % 5 = 0 THEN 'consumer' ELSE 'business' END, now() - interval '4 years', now() - interval '4 years'
         FROM generate_series(1, $2::int) k`,
      [companyId, CUSTOMERS],
    );
    await db.query(
      `INSERT INTO contacts (company_id, id, customer_id, external_id, name, phone, gender, salutation, email, created_at, updated_at)
       SELECT company_id, gen_random_uuid(), id, 'C-' || external_id, 'Erika Mustermann', '+49 30 1234567', 2, 0,
              'buchhaltung@' || lower(customer_number) || '.example', created_at, created_at
         FROM customers WHERE company_id = $1`,
      [companyId],
    );
    // Invoice n: dated n / 100,000 of three years ago up to today, 14 days to pay, 50.00–2,049.99 €.
    await db.query(
      `WITH c AS (SELECT cu.id, co.id AS contact_id, row_number() OVER (ORDER BY cu.id) - 1 AS k
                    FROM customers cu JOIN contacts co ON co.company_id = cu.company_id AND co.customer_id = cu.id WHERE cu.company_id = $1)
       INSERT INTO invoices (company_id, id, external_id, customer_id, contact_id, invoice_number, status, original_total, paid_amount,
                             open_amount, invoice_date, due_date, time_for_payment, source, shipping_mode, created_at, updated_at)
       SELECT $1, gen_random_uuid(), 'EXT-' || n, c.id, CASE WHEN n % 2 = 0 THEN c.contact_id END, 'RE-' || lpad(n::text, 6, '0'),
              s.status, t.total, CASE WHEN s.status = 'paid' THEN t.total ELSE 0 END, CASE WHEN s.status = 'paid' THEN 0 ELSE t.total END,
              d.day, d.day + 14, 14, 'API', CASE WHEN n % 3 = 0 THEN 'email' END, d.day + interval '9 hours', d.day + interval '9 hours'
         FROM generate_series(1, $2::int) n
         JOIN c ON c.k = n % $3::int
         CROSS JOIN LATERAL (SELECT ($4::text[])[1 + n % 20] AS status) s
         CROSS JOIN LATERAL (SELECT (50 + (n * 7919) % 200000 / 100.0)::numeric(14, 2) AS total) t
         CROSS JOIN LATERAL (SELECT current_date - (1095 - n * 1095 / $2::int) AS day) d`,
      [companyId, INVOICES, CUSTOMERS, STATUSES],
    );
    // Reminder k of an invoice: 7 + 21 (k - 1) days after its due date, 7 days to pay; from reminder 2
    // on, a fee, and on reminder 2 the default interest since reminder 1's deadline and the flat fee.
    await db.query(
      `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, last_sent_at, shipping_mode, fees, default_interest,
                              interest_from, interest_until, interest_points, flat_fee, pay_by, dispatched_at, created_at)
       SELECT i.company_id, gen_random_uuid(), i.id, k, r.day, r.day + interval '10 hours', 'email', CASE WHEN k = 1 THEN 0 ELSE 2.50 END,
              CASE WHEN k = 2 THEN round(i.original_total * 0.0001 * 21, 2) ELSE 0 END,
              CASE WHEN k = 2 THEN i.due_date + 15 END, CASE WHEN k = 2 THEN r.day END, CASE WHEN k = 2 THEN 9 END,
              CASE WHEN k = 2 THEN 40 ELSE 0 END, r.day + 7, r.day + interval '10 hours', r.day + interval '10 hours'
         FROM invoices i CROSS JOIN LATERAL generate_series(1, ${REMINDERS_SENT}) k
         CROSS JOIN LATERAL (SELECT i.due_date + 7 + 21 * (k - 1) AS day) r
        WHERE i.company_id = $1`,
      [companyId],
    );
    await db.query(
      `UPDATE invoices i SET reminder_fees = s.fees, default_interest = s.interest, flat_fee = s.flat,
                             open_amount = i.original_total + s.fees + s.interest + s.flat - i.paid_amount
         FROM (SELECT invoice_id, sum(fees) AS fees, sum(default_interest) AS interest, sum(flat_fee) AS flat
                 FROM reminders WHERE company_id = $1 GROUP BY invoice_id) s
        WHERE i.company_id = $1 AND i.id = s.invoice_id`,
      [companyId],
    );
    await db.query(
      `INSERT INTO payments (company_id, id, invoice_id, external_id, amount, payment_date, note, created_at, updated_at)
       SELECT company_id, gen_random_uuid(), id, 'P-' || external_id, original_total, least(due_date, current_date), NULL, updated_at, updated_at
         FROM invoices WHERE company_id = $1 AND status = 'paid'`,
      [companyId],
    );
    // A part paid partly, once or twice: every seventh open invoice.
    await db.query(
      `WITH partly AS (SELECT id, due_date, updated_at FROM invoices
                        WHERE company_id = $1 AND status NOT IN ('paid', 'draft') AND substr(external_id, 5)::int % 7 = 0),
            paid AS (INSERT INTO payments (company_id, id, invoice_id, external_id, amount, payment_date, note, created_at, updated_at)
                     SELECT $1, gen_random_uuid(), p.id, 'PP-' || p.id || '-' || m, 20.00, p.due_date + 3 * m, 'Teilzahlung ' || m,
                            p.updated_at + m * interval '1 day', p.updated_at + m * interval '1 day'
                       FROM partly p CROSS JOIN generate_series(1, 2) m
                     RETURNING invoice_id, amount)
       UPDATE invoices i SET paid_amount = i.paid_amount + s.amount, open_amount = i.open_amount - s.amount
         FROM (SELECT invoice_id, sum(amount) AS amount FROM paid GROUP BY invoice_id) s
        WHERE i.company_id = $1 AND i.id = s.invoice_id`,
      [companyId],
    );
    await db.query('COMMIT');
    await db.query('VACUUM (ANALYZE) customers, contacts, invoices, payments, reminders');
    const pick = async (where: string) =>
      (
        await db.query<{ id: string }>(`SELECT id FROM invoices i WHERE company_id = $1 AND ${where} ORDER BY created_at DESC LIMIT 1`, [
          companyId,
        ])
      ).rows[0].id;
    const withEverything = `status = 'reminder2_sent' AND invoice_date < current_date - 300 AND contact_id IS NOT NULL AND EXISTS (SELECT 1 FROM payments p WHERE p.company_id = i.company_id AND p.invoice_id = i.id)`;
    const ids = [
      await pick(withEverything),
      await pick(`status = 'paid'`),
      await pick(`status = 'draft'`),
      await pick(`status = 'sent_to_dept_collection' AND invoice_date < current_date - 200`),
      await pick(`status = 'reminder1_sent' AND contact_id IS NULL`),
    ];
    return { token, invoiceIds: ids.map((id) => toPublicId('inv', id)) };
  } finally {
    await db.end();
  }
}
