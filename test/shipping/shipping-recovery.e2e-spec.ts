// Shipping never leaves a document hanging: real faults — the invoice PDF gone from the document store,
// the SMTP server down (connection refused), an SMTP server that never answers (timeout) — end, after the
// retries, in failed delivery records, a failed and flagged shipment, a dead letter and an invoice that
// is still a consistent draft; once the cause is fixed, releasing again ships it. A delivery whose job
// ended without an outcome (lost with its process) is settled by the sweep — one with retries left only once
// pg-boss's maintenance, which would retry it, has stopped; a reminder can be shipped again.
import pg from 'pg';
import { parsePublicId } from '../../src/common/ids.js';
import { DocumentStore } from '../../src/documents/document-store.js';
import { STALLED_CHANNELS } from '../../src/shipping/shipments/shipments.statements.js';
import { makePdf } from '../support/pdf.js';
import { shippingApi, shippingTestConfig, waitFor } from '../support/shipping.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { testDatabaseUrl } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

type Api = ReturnType<typeof shippingApi>;

describe('shipping recovery', () => {
  let smtp: TestSmtp;
  let api: Api;
  let pdf: Buffer;

  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  // After-all hooks run in the order they are declared: the server is up again before the app closes.
  afterAll(async () => smtp.setMode('up'));
  const t = useTestApp(() => shippingTestConfig(smtp.url, { SMTP_TIMEOUT_SECONDS: '1' }), { company: true });
  beforeAll(async () => {
    pdf = await makePdf('Rechnung RE-7');
  });
  afterAll(async () => smtp.close());
  beforeEach(async () => {
    await smtp.reset();
    api = shippingApi(t.app, t.company);
  });

  async function draft(mode = 'email'): Promise<string> {
    const customer = await api.customer({
      name: 'Kunde AG',
      address_line1: 'Kunde AG',
      address_line3: 'Allee 2',
      zip: '20095',
      city: 'Hamburg',
      country_code: 'DE',
      shipping_mode: mode,
    });
    const contact = await api.contact({
      customer_id: customer.id,
      name: 'Max Muster',
      gender: '1',
      salutation: '1',
      email: 'max@kunde.de',
    });
    const res = await api
      .createInvoice({ customer_id: customer.id, contact_id: contact.id, invoice_number: 'RE-7', total: '50', due_date: '2026-12-31' }, pdf)
      .expect(201);
    return res.body.invoice.id;
  }

  const settled = (id: string, count = 1) =>
    waitFor(
      async () => {
        const found = await api.deliveries(id);
        return found.shipments.length === count && ['shipped', 'failed'].includes(found.shipments.at(-1)!.status as string) && found;
      },
      'the shipment to settle',
      45_000,
    );

  /**
   * The one message that went out. Delivery is at least once: with this suite's 1 s SMTP timeout, a
   * loaded machine can time out an attempt whose message the server had already taken, and the retry
   * carries the same Message-ID — one message for the recipient's mail system.
   */
  const messageIds = () => [...new Set(smtp.received.map((m) => m.parsed.messageId))];

  const deadLetters = async (queue: string): Promise<number> =>
    (await t.db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1`, [queue]))[0].n;

  /** The failure is on record everywhere a user looks: shipment, deliveries, events, attention list; still a draft. */
  async function expectFlaggedDraft(id: string, error: RegExp) {
    const { shipments, deliveries } = await api.deliveries(id);
    expect(deliveries.map((d) => [d.attempt, d.outcome])).toEqual([
      [1, 'temporary_failure'],
      [2, 'temporary_failure'],
      [3, 'temporary_failure'],
      [4, 'temporary_failure'],
    ]);
    for (const d of deliveries) expect(d.error).toMatch(error);
    expect(shipments[0]).toMatchObject({
      status: 'failed',
      channels: { email: 'failed', post: null },
      attention: expect.stringMatching(/^e-mail failed after 4 attempt\(s\)/),
    });
    expect(await api.invoiceStatus(id)).toBe('draft');
    expect((await api.events(id)).filter((e) => e.kind === 'shipping_failed')).toHaveLength(1);
    const attention = await api.get(`/api/v1/shipments/attention`).expect(200);
    expect(attention.body.shipments.map((s: { invoice_id: string }) => s.invoice_id)).toEqual([id]);
    await waitFor(async () => (await deadLetters('shipping-email-dead')) === 1, 'the dead letter');
  }

  it('the invoice PDF missing from the document store: every attempt recorded, then failed and flagged; put back, a second release ships it', async () => {
    const id = await draft();
    const [{ pdf_key: key }] = await t.db.query(`SELECT pdf_key FROM invoices WHERE id = $1`, [parsePublicId('inv', id)]);
    const store = t.app.get(DocumentStore);
    await store.delete(key);

    await api.post(`/api/v1/invoices/${id}/release`).expect(202);
    await settled(id);
    await expectFlaggedDraft(id, /^could not prepare the e-mail: The invoice PDF is missing from the document store/);
    expect(smtp.attempts).toBe(0);
    // Nothing is sent while the cause lasts, and the document is not stuck: the download says why.
    const letter = await api.get(`/api/v1/invoices/${id}/letter`).expect(404);
    expect(letter.body).toMatchObject({ code: 'invoice.document_missing', detail: expect.stringMatching(/invoice PDF is missing/) });

    await store.putBuffer(key, pdf, 'application/pdf');
    await api.post(`/api/v1/invoices/${id}/release`).expect(202);
    const { shipments } = await settled(id, 2);
    expect(shipments[1]).toMatchObject({ status: 'shipped' });
    expect(await api.invoiceStatus(id)).toBe('sent');
    expect(messageIds()).toHaveLength(1);
    expect(Buffer.compare(smtp.received[0].parsed.attachments[0].content, pdf)).toBe(0);
    expect((await api.get('/api/v1/shipments/attention').expect(200)).body.meta.total_count).toBe(0);
  }, 90_000);

  it('the SMTP server down (connection refused): retried, dead-lettered, flagged; back up, a second release ships it', async () => {
    await smtp.setMode('down');
    const id = await draft();
    await api.post(`/api/v1/invoices/${id}/release`).expect(202);
    await settled(id);
    await expectFlaggedDraft(id, /ECONNREFUSED/);
    expect(smtp.attempts).toBe(0);

    await smtp.setMode('up');
    await api.post(`/api/v1/invoices/${id}/release`).expect(202);
    await settled(id, 2);
    expect(await api.invoiceStatus(id)).toBe('sent');
    expect(messageIds()).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(['max@kunde.de']);
  }, 90_000);

  it('an SMTP server that accepts connections but never answers: each attempt times out, then failed and flagged', async () => {
    await smtp.setMode('hang');
    const id = await draft();
    await api.post(`/api/v1/invoices/${id}/release`).expect(202);
    await settled(id);
    await expectFlaggedDraft(id, /Greeting never received \(ETIMEDOUT\)/);
    expect(smtp.attempts).toBe(0);
  }, 90_000);

  it('a delivery whose job ended without an outcome is settled by the sweep as failed and flagged', async () => {
    const id = await draft();
    const companyId = parsePublicId('cmp', t.company.id);
    const invoiceId = parsePublicId('inv', id);
    // What a process that died on the last attempt leaves behind: a pending shipment, its job gone.
    await t.db.query(
      `INSERT INTO shipments (company_id, id, invoice_id, document, shipping_mode, mode_source, status, email_status, message_id, actor_type, created_at, updated_at)
       VALUES ($1, gen_random_uuid(), $2, 'invoice', 'email', 'customer', 'pending', 'pending', '<lost@receivables.test>', 'api', now() - interval '10 minutes', now() - interval '10 minutes')`,
      [companyId, invoiceId],
    );
    expect((await api.post(`/api/v1/invoices/${id}/release`).expect(409)).body.code).toBe('shipping.in_progress');
    const { shipments, deliveries } = await settled(id);
    expect(shipments[0]).toMatchObject({
      status: 'failed',
      attention: expect.stringMatching(/no outcome was recorded and the delivery job has ended/),
    });
    expect(deliveries).toEqual([expect.objectContaining({ channel: 'email', attempt: 1, outcome: 'permanent_failure' })]);
    expect((await api.get('/api/v1/shipments/attention').expect(200)).body.meta.total_count).toBe(1);
    await api.post(`/api/v1/invoices/${id}/release`).expect(202);
    await waitFor(async () => (await api.invoiceStatus(id)) === 'sent', 'sent');
  }, 60_000);

  it('an attempt lost with its process while retries remain: left to maintenance while it runs, settled once it has stopped', async () => {
    const id = await draft();
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      // In a transaction that is rolled back: the app's own maintenance and sweep never see these rows.
      await client.query('BEGIN');
      const [{ shipment }] = (
        await client.query(
          `INSERT INTO shipments (company_id, id, invoice_id, document, shipping_mode, mode_source, status, email_status, message_id, actor_type, created_at, updated_at)
           VALUES ($1, gen_random_uuid(), $2, 'invoice', 'email', 'customer', 'pending', 'pending', '<lost@receivables.test>', 'api', now() - interval '1 hour', now() - interval '1 hour')
           RETURNING id AS shipment`,
          [parsePublicId('cmp', t.company.id), parsePublicId('inv', id)],
        )
      ).rows;
      // Its first attempt: active, expired an hour ago, two retries left.
      const [{ job }] = (
        await client.query(
          `INSERT INTO pgboss.job (name, data, state, retry_limit, retry_count, started_on, expire_in)
           VALUES ('shipping-email', $1, 'active', 2, 0, now() - interval '1 hour', interval '3 seconds') RETURNING id AS job`,
          [{ companyId: parsePublicId('cmp', t.company.id), shipmentId: shipment }],
        )
      ).rows;
      /** Whether the sweep (maintenance every 60 s) settles it, given the last round and when the sweeping process started. */
      const settles = async (lastRoundAgo: string, processStartedAgoMs: number) => {
        await client.query(`UPDATE pgboss.version SET maintained_on = now() - $1::interval`, [lastRoundAgo]);
        const since = new Date(Date.now() - processStartedAgoMs);
        const { rows } = await client.query(STALLED_CHANNELS.text, ['shipping-email', 'shipping-post', 1, 100, 60, since]);
        return rows.some((row: { shipmentId: string }) => row.shipmentId === shipment);
      };
      expect(await settles('10 seconds', 3_600_000)).toBe(false); // maintenance runs: its next round retries the attempt
      expect(await settles('1 hour', 10_000)).toBe(false); // the sweeping process has just started: its own rounds come first
      expect(await settles('1 hour', 3_600_000)).toBe(true); // no round for three intervals: nobody will retry it
      await client.query(`UPDATE pgboss.job SET retry_count = 2 WHERE id = $1`, [job]);
      expect(await settles('10 seconds', 10_000)).toBe(true); // the last attempt: ended at its expiry, maintenance or not
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
  });

  it('a reminder whose shipment failed can be shipped again once the cause is fixed', async () => {
    const id = await draft();
    const companyId = parsePublicId('cmp', t.company.id) as string;
    const invoiceId = parsePublicId('inv', id) as string;
    await t.db.query(`UPDATE invoices SET status = 'ready_for_reminder1' WHERE company_id = $1 AND id = $2`, [companyId, invoiceId]);
    const [{ id: reminderId }] = await t.db.query(
      `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, fees, dispatched_at) VALUES ($1, gen_random_uuid(), $2, 1, '2026-12-07', 0, now()) RETURNING id`,
      [companyId, invoiceId],
    );
    const path = `/api/v1/invoices/${id}/reminders/rem-${reminderId}/ship`;
    smtp.refuseAll(550);
    await api.post(path).expect(202);
    await settled(id);
    expect((await api.deliveries(id)).shipments[0]).toMatchObject({ document: 'reminder', status: 'failed' });
    expect(await api.invoiceStatus(id)).toBe('ready_for_reminder1');

    await smtp.reset();
    const again = await api.post(path).expect(202);
    expect(again.body.invoice.invoice_status).toBe('ready_for_reminder1');
    expect((await api.post(path).expect(409)).body.code).toBe('shipping.in_progress');
    await waitFor(async () => (await api.invoiceStatus(id)) === 'reminder1_sent', 'reminder1_sent');
    expect(messageIds()).toHaveLength(1);
    expect(smtp.received[0].parsed.subject).toBe('Zahlungserinnerung zur Rechnung RE-7');
    const shipped = await api.post(path).expect(409);
    expect(shipped.body).toMatchObject({ code: 'shipping.not_shippable', detail: expect.stringMatching(/went out already/) });
    await api.post(`/api/v1/invoices/${id}/reminders/rem-00000000-0000-4000-8000-000000000000/ship`).expect(404);
  }, 60_000);
});
