// Delivery faults: an SMTP server that refuses the first attempts with 451 (retried with backoff, then
// delivered once with one Message-ID), one that always refuses (dead letter, flagged, invoice stays a
// draft), one that rejects with 550 (permanent: no retry); and the development outbox without SMTP.
import { simpleParser } from 'mailparser';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makePdf } from '../support/pdf.js';
import { shippingApi, shippingTestConfig, waitFor } from '../support/shipping.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { registerCompany, resetDatabase } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

type Api = ReturnType<typeof shippingApi>;

/** A customer shipping by e-mail with a contact, and a draft invoice with autosend: its id. */
async function autosentInvoice(api: Api, pdf: Buffer): Promise<string> {
  const customer = await api.customer({
    name: 'Kunde AG',
    address_line1: 'Kunde AG',
    address_line3: 'Allee 2',
    zip: '20095',
    city: 'Hamburg',
    country_code: 'DE',
    shipping_mode: 'email',
  });
  const contact = await api.contact({ customer_id: customer.id, name: 'Max Muster', gender: '1', salutation: '1', email: 'max@kunde.de' });
  const res = await api
    .createInvoice(
      {
        customer_id: customer.id,
        contact_id: contact.id,
        invoice_number: 'RE-9',
        total: '50',
        due_date: '2026-12-31',
        'options[autosend]': 'true',
      },
      pdf,
    )
    .expect(201);
  return res.body.invoice.id;
}

describe('shipping faults', () => {
  let smtp: TestSmtp;
  let api: Api;
  let pdf: Buffer;

  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  const t = useTestApp(() => shippingTestConfig(smtp.url), { company: true });
  beforeAll(async () => {
    pdf = await makePdf('Rechnung RE-9');
  });
  afterAll(async () => smtp.close());
  beforeEach(async () => {
    await smtp.reset();
    api = shippingApi(t.app, t.company);
  });

  const finished = (id: string) =>
    waitFor(
      async () => {
        const found = await api.deliveries(id);
        return ['shipped', 'failed'].includes(found.shipments[0]?.status as string) && found;
      },
      'the shipment to finish',
      45_000,
    );

  it('retries temporary failures (451) with growing delays, then delivers once, every attempt with the same Message-ID', async () => {
    smtp.refuseNext(2, 451);
    const id = await autosentInvoice(api, pdf);
    const { deliveries, shipments } = await finished(id);
    expect(deliveries.map((d) => [d.attempt, d.outcome])).toEqual([
      [1, 'temporary_failure'],
      [2, 'temporary_failure'],
      [3, 'delivered'],
    ]);
    expect(deliveries[0].error).toMatch(/451/);
    expect(new Set(deliveries.map((d) => d.message_id))).toEqual(new Set([shipments[0].message_id]));
    // Exponential backoff from SHIPPING_RETRY_DELAY_SECONDS=1: at least 1 s, then at least 2 s (plus jitter).
    const times = deliveries.map((d) => Date.parse(d.created_at as string));
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(900);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(1900);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].parsed.text).toMatch(/^Hallo Max,/); // informal: the first name (salutation 1);
    expect(await api.invoiceStatus(id)).toBe('sent');
  }, 60_000);

  it('dead-letters a delivery that keeps failing, flags the invoice and leaves it a draft', async () => {
    smtp.refuseAll(451);
    const id = await autosentInvoice(api, pdf);
    const { deliveries, shipments } = await finished(id);
    expect(deliveries.map((d) => d.outcome)).toEqual(['temporary_failure', 'temporary_failure', 'temporary_failure', 'temporary_failure']);
    expect(shipments[0]).toMatchObject({ status: 'failed', channels: { email: 'failed', post: null } });
    expect(shipments[0].attention).toMatch(/^e-mail failed after 4 attempt\(s\): .*451/);
    expect(await api.invoiceStatus(id)).toBe('draft');
    const events = await api.events(id);
    expect(events.map((e) => e.kind)).toContain('shipping_failed');
    const attention = await api.get('/api/v1/shipments/attention').expect(200);
    expect(attention.body.shipments.map((s: { invoice_id: string }) => s.invoice_id)).toEqual([id]);
    const dead = await waitFor(async () => {
      const rows: Array<{ n: number }> = await t.db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'shipping-email-dead'`);
      return rows[0].n > 0 && rows[0].n;
    }, 'the dead letter');
    expect(dead).toBe(1);
    expect(smtp.received).toHaveLength(0);
  }, 60_000);

  it('does not retry a permanent rejection (550)', async () => {
    smtp.refuseAll(550);
    const id = await autosentInvoice(api, pdf);
    const { deliveries, shipments } = await finished(id);
    expect(deliveries).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'permanent_failure', error: expect.stringMatching(/550/) }),
    ]);
    expect(shipments[0]).toMatchObject({ status: 'failed', attention: expect.stringMatching(/e-mail failed after 1 attempt/) });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(smtp.attempts).toBe(1);
    expect((await api.deliveries(id)).deliveries).toHaveLength(1);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'shipping-email-dead'`);
    expect(n).toBe(0);
    expect(await api.invoiceStatus(id)).toBe('draft');
  }, 30_000);
});

describe('shipping without SMTP (development outbox)', () => {
  let outbox: string;
  let config: ReturnType<typeof shippingTestConfig>;

  beforeAll(() => {
    config = shippingTestConfig();
    outbox = config.mail.outboxDir;
    expect(config.mail.transport).toBe('outbox');
  });
  const t = useTestApp(() => config, { reset: 'manual' });

  it('writes the e-mail as an .eml file named after its Message-ID', async () => {
    await resetDatabase(t.app);
    const api = shippingApi(t.app, await registerCompany(t.app, 'Outbox GmbH'));
    const pdf = await makePdf('Rechnung RE-9');
    const id = await autosentInvoice(api, pdf);
    await waitFor(async () => (await api.invoiceStatus(id)) === 'sent', 'sent');
    const files = await readdir(outbox);
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(join(outbox, files[0])));
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value : []).toEqual([{ name: 'Max Muster', address: 'max@kunde.de' }]);
    expect(mail.subject).toBe('Rechnung RE-9 von Outbox GmbH');
    expect(Buffer.compare(mail.attachments[0].content, pdf)).toBe(0);
    const { deliveries, shipments } = await api.deliveries(id);
    expect(deliveries[0]).toMatchObject({ outcome: 'delivered', provider: 'outbox', provider_id: join(outbox, files[0]) });
    expect(mail.messageId).toBe(shipments[0].message_id);
    expect(files[0]).toBe(`${(shipments[0].message_id as string).slice(1, -1)}.eml`);
  });
});
