// Seeds the push bench with SQL: one company with an API key, customers and open invoices that the
// pushed payments are booked on (spread over many invoices, as a day's bank statement is).
import pg from 'pg';
import { hashSecret, newSecret } from '../../src/auth/secrets.js';
import { newUuid } from '../../src/common/ids.js';

export interface PushSeed {
  apiKey: string;
  invoiceExternalIds: string[];
}

export async function seedPush(databaseUrl: string, invoiceCount: number): Promise<PushSeed> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN');
    const companyId = newUuid();
    await db.query(`INSERT INTO companies (id, name, time_zone) VALUES ($1, 'Bench Push GmbH', 'Europe/Berlin')`, [companyId]);
    const apiKey = newSecret('key');
    await db.query(
      `INSERT INTO api_keys (company_id, id, name, key_hash, key_prefix, expires_at) VALUES ($1, $2, 'bench', $3, $4, now() + interval '90 days')`,
      [companyId, newUuid(), hashSecret(apiKey), apiKey.slice(0, 8)],
    );
    const customerId = newUuid();
    await db.query(
      `INSERT INTO customers (company_id, id, external_id, name, address_line1, address_line3, zip, city, country_code)
       VALUES ($1, $2, 'K-1', 'Großkunde AG', 'Großkunde AG', 'Hauptstraße 1', '10115', 'Berlin', 'DE')`,
      [companyId, customerId],
    );
    // Totals far above what the bench pays, so every payment books and no invoice becomes paid.
    await db.query(
      `INSERT INTO invoices (company_id, id, external_id, customer_id, invoice_number, status, original_total, open_amount, invoice_date, due_date, time_for_payment)
       SELECT $1, gen_random_uuid(), 'RE-' || n, $2, 'R-' || n, 'sent', 100000, 100000, current_date, current_date + 14, 14
         FROM generate_series(1, $3::int) AS n`,
      [companyId, customerId, invoiceCount],
    );
    await db.query('COMMIT');
    return { apiKey, invoiceExternalIds: Array.from({ length: invoiceCount }, (_, i) => `RE-${i + 1}`) };
  } finally {
    await db.end();
  }
}
