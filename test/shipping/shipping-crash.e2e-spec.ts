// The delivery guarantee under SIGKILL, with the service in a child process and a real SMTP server in
// the test: killed between "decided to ship" and "shipped" the mail still goes out after the restart;
// killed after the server took the message but before the outcome was recorded it goes out again with
// the same Message-ID (at least once, one Message-ID) and is recorded as delivered once; killed on the
// last attempt, the sweep flags the shipment failed, and releasing again ships it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import pg from 'pg';
import { runMigrations } from '../../src/database/migrate.js';
import { makePdf } from '../support/pdf.js';
import { type ServiceChild, startServiceChild } from '../support/service-child.js';
import { waitFor } from '../support/shipping.js';
import { SMTP_CA_FILE, startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { testDatabaseUrl } from '../support/test-app.js';

describe('shipping under SIGKILL (service in a child process)', () => {
  let smtp: TestSmtp;
  let dataDir: string;
  let db: pg.Pool;
  let service: ServiceChild | undefined;
  let auth: string;
  let pdf: Buffer;
  let invoiceSeq = 0;

  const env = (extra: Record<string, string> = {}) => ({
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'https://receivables.test',
    RATE_LIMIT_PER_MINUTE: '1000000',
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    SMTP_CA_FILE,
    SMTP_REQUIRE_TLS: 'true',
    MAIL_FROM: 'rechnungen@receivables.test',
    SHIPPING_RETRY_DELAY_SECONDS: '1',
    SHIPPING_POLL_SECONDS: '0.5',
    // An attempt lost with its process counts as failed after 3 s (pg-boss checks every second).
    SHIPPING_JOB_EXPIRE_SECONDS: '3',
    JOBS_MAINTENANCE_SECONDS: '1',
    SHIPPING_SWEEP_SECONDS: '1',
    ...extra,
  });

  beforeAll(async () => {
    smtp = await startTestSmtp();
    dataDir = await mkdtemp(join(tmpdir(), 'receivables-shipping-crash-'));
    await runMigrations(testDatabaseUrl());
    db = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
    // Registration is limited per address, and the counters are shared through this database with the
    // suites before: the service starts on it as on a fresh one.
    await db.query(`TRUNCATE companies, pgboss.job, rate_limit_counters CASCADE`);
    pdf = await makePdf('Rechnung CRASH');
    service = await startServiceChild(testDatabaseUrl(), env({ SHIPPING_WORKERS: 'false' }));
    const reg = await call('POST', '/api/v1/registrations', {
      company_name: 'Crash GmbH',
      email: 'crash@example.com',
      password: 'Sicher!Passwort1',
    });
    auth = `Token token=${reg.api_token}`;
  }, 120_000);

  afterAll(async () => {
    await service?.kill();
    await db?.end();
    await smtp.close();
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  async function restart(extra: Record<string, string> = {}, downMs = 0): Promise<void> {
    await service?.kill();
    await sleep(downMs);
    service = await startServiceChild(testDatabaseUrl(), env(extra));
  }

  /** The JSON answer, loosely typed: each test reads the few fields it checks. */
  interface Answer {
    id: string;
    api_token: string;
    contact: { id: string };
    invoice: { id: string; invoice_status: string };
    shipments: Array<{ status: string; message_id: string; attention: string | null; invoice_id: string }>;
    deliveries: Array<Record<string, unknown>>;
  }

  async function call(method: string, path: string, form?: Record<string, string>, expected = [200, 201, 202]): Promise<Answer> {
    const res = await fetch(`${service!.origin}${path}`, {
      method,
      headers: { ...(auth ? { authorization: auth } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json()) as Answer;
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  }

  /** A draft to Erika by e-mail, created over HTTP; its public id. */
  async function draft(): Promise<string> {
    const customer = await call('POST', '/api/v1/customers', {
      name: 'Kunde AG',
      address_line1: 'Kunde AG',
      address_line3: 'Allee 2',
      zip: '20095',
      city: 'Hamburg',
      country_code: 'DE',
      shipping_mode: 'email',
    });
    const contact = await call('POST', '/api/v1/contacts', {
      customer_id: customer.id,
      name: 'Erika Muster',
      gender: '2',
      salutation: '0',
      email: 'erika@kunde.de',
    });
    const form = new FormData();
    for (const [k, v] of Object.entries({
      customer_id: customer.id,
      contact_id: contact.contact.id,
      invoice_number: `CR-${++invoiceSeq}`,
      total: '80',
      due_date: '2026-12-31',
    }))
      form.set(k, v);
    form.set('invoice', new Blob([pdf], { type: 'application/pdf' }), 'rechnung.pdf');
    const res = await fetch(`${service!.origin}/api/v1/invoices`, { method: 'POST', headers: { authorization: auth }, body: form });
    expect(res.status).toBe(201);
    return ((await res.json()) as { invoice: { id: string } }).invoice.id;
  }

  const deliveries = (id: string) => call('GET', `/api/v1/invoices/${id}/deliveries`);
  const status = async (id: string): Promise<string> => (await call('GET', `/api/v1/invoices/${id}`)).invoice.invoice_status;
  const sent = (id: string) =>
    waitFor(async () => (await status(id)) === 'sent', `invoice ${id} sent`, 60_000).catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await diagnosis(id)}`);
    });

  /** What a failed wait needs to be understood: the queue's jobs, the deliveries, the mails, the service's log. */
  async function diagnosis(id: string): Promise<string> {
    const jobs = await db.query(
      `SELECT name, state, retry_count, retry_limit, start_after, started_on, completed_on, output FROM pgboss.job
        WHERE name LIKE 'shipping-%' ORDER BY created_on`,
    );
    const found = await deliveries(id).catch((e: Error) => e.message);
    const mails = smtp.received.map((m) => `${m.parsed.subject} ${m.parsed.messageId}`);
    return [
      `at ${new Date().toISOString()}, jobs: ${JSON.stringify(jobs.rows)}`,
      `deliveries: ${JSON.stringify(found)}`,
      `mails: ${JSON.stringify(mails)}`,
      `service log:\n${service?.output() ?? ''}`,
    ].join('\n');
  }
  const mailsOf = (number: string) => smtp.received.filter((m) => m.parsed.subject?.includes(number));

  it('killed between the decision and the send: after the restart the mail goes out, once', async () => {
    const id = await draft(); // this process has no delivery worker: the job waits in the queue
    await call('POST', `/api/v1/invoices/${id}/release`);
    await restart();
    await sent(id);
    const { shipments, deliveries: rows } = await deliveries(id);
    expect(rows).toEqual([expect.objectContaining({ attempt: 1, outcome: 'delivered', message_id: shipments[0].message_id })]);
    const mails = mailsOf('CR-1');
    expect(mails).toHaveLength(1);
    expect(mails[0].parsed.messageId).toBe(shipments[0].message_id);
  }, 120_000);

  it('killed after the server took the message, before the outcome was recorded: sent again with the same Message-ID, recorded once', async () => {
    const hold = smtp.holdNextReply();
    const id = await draft();
    await call('POST', `/api/v1/invoices/${id}/release`);
    await hold.received; // the message is with the server, its 250 reply held back
    // SIGKILL, and down for longer than the attempt's expiry (3 s) and three maintenance rounds of the next
    // process (3 × 3 s; a deploy that took its time): its sweep (every second) comes before its first
    // maintenance round, and must leave the attempt to the retry that round makes — not settle the mail
    // as failed. The next process uses no retries (for the next test).
    await restart({ SHIPPING_RETRY_LIMIT: '0', JOBS_MAINTENANCE_SECONDS: '3' }, 12_000);
    hold.release();
    await sent(id);
    const { shipments, deliveries: rows } = await deliveries(id);
    // The lost attempt was the first; the queue retried the job after its expiry.
    expect(rows).toEqual([expect.objectContaining({ attempt: 2, outcome: 'delivered' })]);
    const mails = mailsOf('CR-2');
    expect(mails.length).toBeGreaterThanOrEqual(2);
    expect(new Set(mails.map((m) => m.parsed.messageId))).toEqual(new Set([shipments[0].message_id]));
  }, 120_000);

  it('killed on the last attempt: the sweep flags the shipment failed, and a second release ships it', async () => {
    const hold = smtp.holdNextReply();
    const id = await draft();
    await call('POST', `/api/v1/invoices/${id}/release`);
    await hold.received;
    await restart();
    hold.release();
    const failed = await waitFor(
      async () => {
        const found = await deliveries(id);
        return found.shipments[0]?.status === 'failed' && found;
      },
      'the sweep to settle the shipment',
      60_000,
    );
    expect(failed.shipments[0].attention).toMatch(
      /no outcome was recorded and the delivery job has ended \(last error: job failed by timeout in active state\)/,
    );
    expect(failed.deliveries).toEqual([expect.objectContaining({ outcome: 'permanent_failure' })]);
    expect(await status(id)).toBe('draft');
    const attention = await call('GET', '/api/v1/shipments/attention');
    expect(attention.shipments.map((s) => s.invoice_id)).toContain(id);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'shipping-email-dead'`);
    expect(rows[0].n).toBe(1);

    await call('POST', `/api/v1/invoices/${id}/release`);
    await sent(id);
    const { shipments } = await deliveries(id);
    expect(shipments.map((s) => s.status)).toEqual(['failed', 'shipped']);
  }, 120_000);
});
