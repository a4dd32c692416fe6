// What the clients work on, set up as an operator and an ERP would: open invoices for pushed payments
// (SQL, like the push bench), then through the proxy the shipping settings, an e-mail customer, the
// ERP connection on a schedule and the dunning policy's run time.
import type { ErpPki } from '../support/pki.js';
import type { SapODataServer } from '../support/sap-odata-server.js';
import { admin } from './setup.js';
import type { Client, Reply } from './client.js';
import type { Company } from './load.js';

export const OPEN_INVOICES = 200;

const uuid = (publicId: string) => publicId.slice(publicId.indexOf('-') + 1);

export async function seedOpenInvoices(databaseUrl: string, company: Company): Promise<void> {
  await admin(databaseUrl, async (db) => {
    const customer = await db.query<{ id: string }>(
      `INSERT INTO customers (company_id, id, external_id, name, address_line1, address_line3, zip, city, country_code)
       VALUES ($1, gen_random_uuid(), 'K-PUSH', 'Großkunde AG', 'Großkunde AG', 'Hauptstraße 1', '10115', 'Berlin', 'DE') RETURNING id`,
      [uuid(company.id)],
    );
    // Totals far above what is pushed, so every payment books and no invoice becomes paid.
    await db.query(
      `INSERT INTO invoices (company_id, id, external_id, customer_id, invoice_number, status, original_total, open_amount, invoice_date, due_date, time_for_payment)
       SELECT $1, gen_random_uuid(), 'RE-' || n, $2, 'R-' || n, 'sent', 100000, 100000, current_date, current_date + 14, 14
         FROM generate_series(1, $3::int) AS n`,
      [uuid(company.id), customer.rows[0].id, OPEN_INVOICES],
    );
  });
}

async function ok(what: string, reply: Promise<Reply>, expected: number) {
  const res = await reply;
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json())}`);
  return res.json();
}

/** The customer uploads are made for: shipped by e-mail to its contact. */
export async function emailCustomer(client: Client, company: Company): Promise<string> {
  const auth = { Authorization: `Token token=${company.token}`, 'Content-Type': 'application/json' };
  const form = { Authorization: `Token token=${company.token}`, 'Content-Type': 'application/x-www-form-urlencoded' };
  await ok(
    'shipping settings',
    client.send(
      'setup',
      'PATCH',
      '/api/v1/shipping_settings',
      auth,
      JSON.stringify({ sender_email: 'buchhaltung@muster.test', bank_iban: 'DE89 3704 0044 0532 0130 00' }),
    ),
    200,
  );
  const customer = await ok(
    'customer',
    client.send(
      'setup',
      'POST',
      '/api/v1/customers',
      form,
      new URLSearchParams({
        name: 'Kunde AG',
        address_line1: 'Kunde AG',
        address_line3: 'Allee 2',
        zip: '20095',
        city: 'Hamburg',
        country_code: 'DE',
        shipping_mode: 'email',
      }).toString(),
    ),
    201,
  );
  await ok(
    'contact',
    client.send(
      'setup',
      'POST',
      '/api/v1/contacts',
      form,
      new URLSearchParams({
        customer_id: customer.id,
        name: 'Erika Muster',
        gender: '2',
        salutation: '0',
        email: 'erika@kunde.test',
      }).toString(),
    ),
    201,
  );
  return customer.id as string;
}

/** Every second minute: a slot of its own, and never due at the odd minute the dunning run is set to. */
export async function scheduledConnection(client: Client, company: Company, sap: SapODataServer, pki: ErpPki): Promise<void> {
  const body = {
    name: 'SAP cluster',
    base_url: sap.origin,
    odata_version: 'v2',
    ca_certificates: pki.ca,
    auth_method: 'basic',
    username: 'RECEIVABLES',
    password: 'T3chnical-User!pw',
    schedule: '*/2 * * * *',
  };
  await ok(
    'erp connection',
    client.send(
      'setup',
      'POST',
      '/api/v1/erp_connections',
      { Authorization: `Token token=${company.token}`, 'Content-Type': 'application/json' },
      JSON.stringify(body),
    ),
    201,
  );
}

/** The company's daily run at the first odd minute at least 45 s ahead (its time zone: Europe/Berlin). */
export async function dunningSoon(client: Client, company: Company): Promise<string> {
  const auth = { Authorization: `Token token=${company.token}`, 'Content-Type': 'application/json' };
  const policy = (await ok('policy', client.send('setup', 'GET', '/api/v1/dunning_policy', auth), 200)).dunning_policy;
  let at = new Date(Date.now() + 45_000);
  if (at.getUTCMinutes() % 2 === 0) at = new Date(at.getTime() + 60_000);
  const runAt = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  await ok('policy update', client.send('setup', 'PUT', '/api/v1/dunning_policy', auth, JSON.stringify({ ...policy, run_at: runAt })), 200);
  return runAt;
}

/**
 * The dunning tick's cron every minute instead of every five (pg-boss's schedule row, which each
 * replica writes at start): the run time above is then reached within the run. Scheduling itself is
 * the service's: every replica's pg-boss cron, the tick on one of them, the run once per company.
 */
export async function everyMinuteTick(databaseUrl: string): Promise<void> {
  await admin(databaseUrl, (db) => db.query(`UPDATE pgboss.schedule SET cron = '* * * * *' WHERE name = 'dunning.tick'`));
}
