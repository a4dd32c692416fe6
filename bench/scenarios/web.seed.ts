// Seeds the web bench with SQL (generate_series): one company with 100,000 invoices of 2,000 customers,
// spread over three years and every stage of their life (drafts, sent, due, reminders 1–3, debt
// collection, paid with their payments, written off, archived), as a long-standing customer's database is.
import pg from 'pg';

export const INVOICES = 100_000;
export const CUSTOMERS = 2_000;

/** Status by n % 20: a third paid, most of the rest open at some stage. */
export const STATUSES = [
  'draft',
  'sent',
  'sent',
  'sent',
  'due',
  'due',
  'ready_for_reminder1',
  'reminder1_sent',
  'reminder2_sent',
  'reminder3_sent',
  'ready_for_dept_collection',
  'sent_to_dept_collection',
  'written_off',
  'archived',
  'paid',
  'paid',
  'paid',
  'paid',
  'paid',
  'paid',
];

/** Fills the company (registered through the API, so its user can sign in) and analyzes the tables. */
export async function seedWeb(databaseUrl: string, companyId: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN');
    await db.query(
      `INSERT INTO customers (company_id, id, external_id, customer_number, name, address_line1, address_line3, zip, city, country_code)
       SELECT $1, gen_random_uuid(), 'K-' || k, lpad(k::text, 6, '0'),
              (ARRAY['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker'])[1 + k % 8] || ' ' || k || ' GmbH',
              'Hauptstraße ' || k, 'Hauptstraße ' || k, '10115', 'Berlin', 'DE'
         FROM generate_series(1, $2::int) k`,
      [companyId, CUSTOMERS],
    );
    // Invoice n: dated n / 100,000 of three years ago up to today, 14 days to pay, 50.00–2,049.99 €.
    await db.query(
      `WITH c AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM customers WHERE company_id = $1)
       INSERT INTO invoices (company_id, id, external_id, customer_id, invoice_number, status, original_total, paid_amount, open_amount,
                             invoice_date, due_date, time_for_payment, source, created_at, updated_at)
       SELECT $1, gen_random_uuid(), 'EXT-' || n, c.id, 'RE-' || lpad(n::text, 6, '0'), s.status, t.total,
              CASE WHEN s.status = 'paid' THEN t.total ELSE 0 END,
              CASE WHEN s.status = 'paid' THEN 0 ELSE t.total END,
              d.day, d.day + 14, 14, 'API', d.day, d.day
         FROM generate_series(1, $2::int) n
         JOIN c ON c.k = n % $3::int
         CROSS JOIN LATERAL (SELECT ($4::text[])[1 + n % 20] AS status) s
         CROSS JOIN LATERAL (SELECT (50 + (n * 7919) % 200000 / 100.0)::numeric(14, 2) AS total) t
         CROSS JOIN LATERAL (SELECT current_date - (1095 - n * 1095 / $2::int) AS day) d`,
      [companyId, INVOICES, CUSTOMERS, STATUSES],
    );
    await db.query(
      `INSERT INTO payments (company_id, id, invoice_id, amount, payment_date)
       SELECT company_id, gen_random_uuid(), id, original_total, least(due_date, current_date)
         FROM invoices WHERE company_id = $1 AND status = 'paid'`,
      [companyId],
    );
    await db.query('COMMIT');
    // As autovacuum leaves a table that has settled: statistics, and a visibility map for index-only scans.
    await db.query('VACUUM (ANALYZE) customers, invoices, payments');
  } finally {
    await db.end();
  }
}
