// Seeds the invoices bench with SQL: one company with an API token and one customer the invoices are
// created for (spec "Create invoice" with customer_id).
import pg from 'pg';
import { hashSecret, newSecret } from '../../src/auth/secrets.js';
import { newUuid, toPublicId } from '../../src/common/ids.js';

export interface InvoicesSeed {
  companyId: string;
  token: string;
  /** Public id (cus-…) of the customer. */
  customerId: string;
}

export async function seedInvoices(databaseUrl: string): Promise<InvoicesSeed> {
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
    const customerId = newUuid();
    await db.query(
      `INSERT INTO customers (company_id, id, external_id, customer_number, name, phone, address_line1, address_line2,
         address_line3, zip, city, country_code, shipping_mode)
       VALUES ($1, $2, 'ERP-100001', 'K-20001', 'Müller & Söhne GmbH', '+49 30 1000001', 'Müller & Söhne GmbH',
         'z. Hd. Buchhaltung', 'Große Straße 1', '10115', 'Berlin', 'DE', 'email')`,
      [companyId, customerId],
    );
    await db.query('COMMIT');
    await db.query('ANALYZE');
    return { companyId, token, customerId: toPublicId('cus', customerId) };
  } finally {
    await db.end();
  }
}
