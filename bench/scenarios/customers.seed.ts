// Seeds the customers bench with SQL: one company with an API token, customers with every field
// filled (umlauts included, so the JSON has multi-byte characters) and two contacts each.
import pg from 'pg';
import { hashSecret, newSecret } from '../../src/auth/secrets.js';
import { newUuid, toPublicId } from '../../src/common/ids.js';

export interface CustomersSeed {
  companyId: string;
  token: string;
  /** Public ids (cus-…) of the customers, oldest first. */
  customerIds: string[];
  /** The same customers' uuids, as stored. */
  customerUuids: string[];
}

export async function seedCustomers(databaseUrl: string, customerCount: number): Promise<CustomersSeed> {
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
    // Distinct creation times, a second apart, so the list order (created_at, id) is the insertion order.
    const start = Date.parse('2025-03-01T08:00:00Z');
    const customerUuids: string[] = [];
    for (let i = 1; i <= customerCount; i++) {
      const id = newUuid();
      const createdAt = new Date(start + i * 1000);
      await db.query(
        `INSERT INTO customers (company_id, id, external_id, customer_number, additional_number, name, phone,
           address_line1, address_line2, address_line3, address_line4, zip, city, country_code,
           stop_automatic_reminders, shipping_mode, customer_group_id, note, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'DE', $14, $15, $16, $17, $18, $18)`,
        [
          companyId,
          id,
          `ERP-${100000 + i}`,
          `K-${20000 + i}`,
          i % 3 === 0 ? `Z-${i}` : null,
          `Müller & Söhne ${i} GmbH`,
          `+49 30 ${1000000 + i}`,
          `Müller & Söhne ${i} GmbH`,
          i % 2 === 0 ? 'z. Hd. Buchhaltung' : null,
          `Große Straße ${i}`,
          null,
          String(10000 + i),
          'Berlin',
          i % 10 === 0,
          i % 2 === 0 ? 'email' : 'post',
          i % 4 === 0 ? 'key-accounts' : null,
          `Zahlt meist pünktlich; Ansprechpartnerin für Mahnungen ist die Buchhaltung (${i}).`,
          createdAt,
        ],
      );
      for (const [n, gender] of [
        [1, 2],
        [2, 1],
      ]) {
        await db.query(
          `INSERT INTO contacts (company_id, id, customer_id, external_id, name, phone, gender, salutation, email,
             created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
          [
            companyId,
            newUuid(),
            id,
            `ERP-C-${i}-${n}`,
            n === 1 ? `Erika Mustermann ${i}` : `Jürgen Schäfer ${i}`,
            `+49 30 ${2000000 + i * 10 + n}`,
            gender,
            n === 1 ? 0 : 1,
            `kontakt${n}.${i}@example.com`,
            new Date(createdAt.getTime() + n * 100),
          ],
        );
      }
      customerUuids.push(id);
    }
    await db.query('COMMIT');
    await db.query('ANALYZE');
    return { companyId, token, customerUuids, customerIds: customerUuids.map((id) => toPublicId('cus', id)) };
  } finally {
    await db.end();
  }
}
