// Shipping end to end: every shipping mode, the e-mail as a real SMTP server receives it (STARTTLS,
// recipients, subject, greeting, attachments byte for byte, Message-ID), letters and print batches read
// back as text, flags for what cannot go out, reminders shipped for the dunning engine.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { parsePublicId } from '../../src/common/ids.js';
import { PostalProvider } from '../../src/shipping/postal/postal-provider.js';
import type { PrintBatchProvider } from '../../src/shipping/postal/print-batch.provider.js';
import { ShippingService } from '../../src/shipping/shipments/shipping.service.js';
import { makePdf } from '../support/pdf.js';
import { pdfPages, pdfText } from '../support/pdf-text.js';
import { shippingApi, shippingTestConfig, waitFor } from '../support/shipping.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { registerCompany, type TestCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

describe('shipping', () => {
  let smtp: TestSmtp;
  let config: ReturnType<typeof shippingTestConfig>;
  let company: TestCompany;
  let api: ReturnType<typeof shippingApi>;
  let invoicePdf: Buffer;
  let attachmentPdf: Buffer;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    config = shippingTestConfig(smtp.url);
  });
  const t = useTestApp(() => config);
  beforeAll(async () => {
    invoicePdf = await makePdf('Rechnung 2026-001 der Muster Handel GmbH');
    attachmentPdf = await makePdf('Lieferschein 4711');
  });
  afterAll(async () => smtp.close());
  beforeEach(async () => {
    await smtp.reset();
    company = await registerCompany(t.app, 'Muster Handel GmbH');
    api = shippingApi(t.app, company);
    await api
      .patch('/api/v1/shipping_settings', {
        sender_street: 'Hauptstraße 5',
        sender_zip: '10115',
        sender_city: 'Berlin',
        sender_email: 'buchhaltung@muster-handel.de',
        bank_iban: 'DE89 3704 0044 0532 0130 00',
        bank_bic: 'COBADEFFXXX',
        bank_name: 'Commerzbank',
      })
      .expect(200);
  });

  /** A customer with the given mode and, unless `email` is null, a contact Erika Muster with that address. */
  async function customer(mode: string | null, email: string | null = 'erika@kunde.de') {
    const created = await api.customer({
      name: 'Kunde AG',
      address_line1: 'Kunde AG',
      address_line2: 'Einkauf',
      address_line3: 'Allee 2',
      zip: '20095',
      city: 'Hamburg',
      country_code: 'DE',
      customer_number: 'K-1001',
      ...(mode ? { shipping_mode: mode } : {}),
    });
    const contact = await api.contact({
      customer_id: created.id,
      name: 'Erika Muster',
      gender: '2',
      salutation: '0',
      ...(email ? { email } : {}),
    });
    return { customerId: created.id, contactId: contact.id };
  }

  async function draft(fields: Record<string, string>, attachment?: Buffer) {
    const res = await api
      .createInvoice(
        { invoice_number: '2026-001', total: '119.00', invoice_date: '02.11.2026', due_date: '16.11.2026', ...fields },
        invoicePdf,
        attachment,
      )
      .expect(201);
    return res.body.invoice as { id: string; invoice_status: string; shipping_mode: string | null };
  }

  const sentOf = (id: string) => waitFor(async () => (await api.invoiceStatus(id)) === 'sent', `invoice ${id} sent`);

  const printBatch = async () => {
    await t.app.get<PostalProvider, PrintBatchProvider>(PostalProvider).flush();
    const root = join(config.shipping.printBatchDir, parsePublicId('cmp', company.id) as string);
    const [day] = await readdir(root);
    const dir = join(root, day);
    return { dir, manifest: await readFile(join(dir, 'manifest.csv'), 'utf8'), batch: await readFile(join(dir, 'batch.pdf')) };
  };

  it('e-mail (autosend): the contact receives subject, greeting, invoice and attachment over STARTTLS; the invoice becomes sent', async () => {
    const { customerId, contactId } = await customer('email');
    const invoice = await draft({ customer_id: customerId, contact_id: contactId, 'options[autosend]': 'true' }, attachmentPdf);
    expect(invoice.invoice_status).toBe('draft');
    await sentOf(invoice.id);

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.secure).toBe(true);
    expect(['TLSv1.2', 'TLSv1.3']).toContain(mail.tlsVersion);
    expect(mail.heloName).toBe('mailer.receivables.test');
    expect(mail.to).toEqual(['erika@kunde.de']);
    expect(mail.from).toBe('rechnungen@receivables.test');
    expect(mail.parsed.from?.value).toEqual([{ name: 'Muster Handel GmbH', address: 'rechnungen@receivables.test' }]);
    expect(mail.parsed.replyTo?.value[0].address).toBe('buchhaltung@muster-handel.de');
    expect(mail.parsed.subject).toBe('Rechnung 2026-001 von Muster Handel GmbH');
    expect(
      mail.parsed.text?.startsWith(
        'Sehr geehrte Frau Muster,\n\nanbei erhalten Sie unsere Rechnung 2026-001 vom 02.11.2026 über 119,00\u00a0€.',
      ),
    ).toBe(true);
    expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['Rechnung-2026-001.pdf', 'application/pdf'],
      ['Anlage-2026-001.pdf', 'application/pdf'],
    ]);
    expect(Buffer.compare(mail.parsed.attachments[0].content, invoicePdf)).toBe(0);
    expect(Buffer.compare(mail.parsed.attachments[1].content, attachmentPdf)).toBe(0);

    const { deliveries, shipments } = await api.deliveries(invoice.id);
    expect(shipments).toEqual([
      expect.objectContaining({
        document: 'invoice',
        shipping_mode: 'email',
        mode_source: 'customer',
        status: 'shipped',
        channels: { email: 'delivered', post: null },
        attention: null,
      }),
    ]);
    expect(deliveries).toEqual([
      expect.objectContaining({
        channel: 'email',
        attempt: 1,
        recipient: 'erika@kunde.de',
        outcome: 'delivered',
        provider: 'smtp',
        message_id: shipments[0].message_id,
        error: null,
      }),
    ]);
    expect(deliveries[0].id).toMatch(/^dlv-/);
    expect(deliveries[0].provider_id).toMatch(/^250/);
    expect(mail.parsed.messageId).toBe(shipments[0].message_id);
    const events = await api.events(invoice.id);
    expect(events.find((e) => e.to_status === 'sent')).toMatchObject({ reason: 'shipped by e-mail', actor: { type: 'api' } });
  });

  it("e-mail without the invoice's contact goes to the customer's contacts with an address", async () => {
    const { customerId } = await customer('email', 'erika@kunde.de');
    await api.contact({ customer_id: customerId, name: 'Max Keinmail', gender: '1', salutation: '0' });
    const invoice = await draft({ customer_id: customerId });
    await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
    await sentOf(invoice.id);
    expect(smtp.received.map((m) => m.to)).toEqual([['erika@kunde.de']]);
  });

  it('post (release): the letter goes into the day’s print batch with a manifest row; the cover page carries the address block', async () => {
    await api.patch('/api/v1/shipping_settings', { cover_page: 'true' }).expect(200);
    const { customerId, contactId } = await customer('post');
    const invoice = await draft({ customer_id: customerId, contact_id: contactId }, attachmentPdf);
    const released = await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
    expect(released.body.invoice.invoice_status).toBe('draft');
    await sentOf(invoice.id);
    expect(smtp.received).toHaveLength(0);

    const { manifest, batch } = await printBatch();
    const rows = manifest.trim().split('\r\n');
    expect(rows[0]).toBe('sequence,first_page,pages,reference,description,recipient,submitted_at');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/^1,1,3,[0-9a-f-]{36},Rechnung 2026-001,"Kunde AG, Einkauf, Allee 2, 20095 Hamburg",/);
    const pages = await pdfPages(batch);
    expect(pages).toHaveLength(3);
    const cover = pages[0].join('\n');
    for (const line of [
      'Muster Handel GmbH · Hauptstraße 5 · 10115 Berlin',
      'Kunde AG',
      'Einkauf',
      'Allee 2',
      '20095 Hamburg',
      'Rechnung 2026-001',
      'Sehr geehrte Frau Muster,',
      'Rechnungsbetrag 119,00 €',
    ]) {
      expect(cover).toContain(line);
    }
    expect(cover).toContain('IBAN DE89 3704 0044 0532 0130 00');
    expect(pages[1].join(' ')).toContain('Rechnung 2026-001 der Muster Handel GmbH');
    expect(pages[2].join(' ')).toContain('Lieferschein 4711');

    const { deliveries } = await api.deliveries(invoice.id);
    expect(deliveries).toEqual([
      expect.objectContaining({
        channel: 'post',
        outcome: 'delivered',
        provider: 'print_batch',
        recipient: 'Kunde AG, Einkauf, Allee 2, 20095 Hamburg',
        message_id: null,
      }),
    ]);
    const letter = await api.get(`/api/v1/invoices/${invoice.id}/letter`).expect(200);
    expect(letter.headers['content-type']).toBe('application/pdf');
    expect((await pdfPages(letter.body)).length).toBe(3);
  });

  it('post without the cover page (the default): the letter is exactly the client’s PDF and its attachment', async () => {
    const { customerId, contactId } = await customer('post');
    const invoice = await draft({ customer_id: customerId, contact_id: contactId }, attachmentPdf);
    await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
    await sentOf(invoice.id);
    const { manifest, batch } = await printBatch();
    expect(manifest.trim().split('\r\n')[1]).toMatch(/^1,1,2,/);
    expect((await pdfPages(batch)).map((lines) => lines.join(' '))).toEqual([
      'Rechnung 2026-001 der Muster Handel GmbH',
      'Lieferschein 4711',
    ]);
  });

  it('post: a retry goes into the print batch of the day of the first attempt, never into a second one', async () => {
    const { customerId, contactId } = await customer('post');
    const invoice = await draft({ customer_id: customerId, contact_id: contactId });
    // The print-batch folder cannot be written (a file stands where the company's folder belongs).
    const root = join(config.shipping.printBatchDir, parsePublicId('cmp', company.id) as string);
    await mkdir(config.shipping.printBatchDir, { recursive: true });
    await writeFile(root, 'in the way');
    await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
    const failed = await waitFor(async () => {
      const found = await api.deliveries(invoice.id);
      return found.deliveries.length > 0 && found;
    }, 'the first attempt');
    expect(failed.deliveries[0]).toMatchObject({ channel: 'post', attempt: 1, outcome: 'temporary_failure' });
    // As if that attempt had been just before midnight on 30 September: the retry keeps its day.
    await t.db.query(`UPDATE shipments SET print_day = '2026-09-30' WHERE invoice_id = $1`, [parsePublicId('inv', invoice.id)]);
    await rm(root);
    await sentOf(invoice.id);
    expect(await readdir(root)).toEqual(['2026-09-30']);
    const { deliveries } = await api.deliveries(invoice.id);
    expect(deliveries.at(-1)).toMatchObject({ outcome: 'delivered', provider_id: '2026-09-30/1' });
  });

  it('dual shipping: one e-mail and one letter, two delivery records, then sent', async () => {
    const { customerId, contactId } = await customer('dual_shipping');
    const invoice = await draft({ customer_id: customerId, contact_id: contactId });
    await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
    await sentOf(invoice.id);
    expect(smtp.received).toHaveLength(1);
    expect((await printBatch()).manifest.trim().split('\r\n')).toHaveLength(2);
    const { deliveries, shipments } = await api.deliveries(invoice.id);
    expect(deliveries.map((d) => [d.channel, d.outcome]).sort()).toEqual([
      ['email', 'delivered'],
      ['post', 'delivered'],
    ]);
    expect(shipments[0]).toMatchObject({ status: 'shipped', channels: { email: 'delivered', post: 'delivered' } });
    const events = await api.events(invoice.id);
    expect(events.filter((e) => e.to_status === 'sent')).toHaveLength(1);
  });

  it('dual shipping without any e-mail address posts the letter and notes the missing e-mail', async () => {
    const { customerId } = await customer('dual_shipping', null);
    const invoice = await draft({ customer_id: customerId });
    await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
    await sentOf(invoice.id);
    const { shipments } = await api.deliveries(invoice.id);
    expect(shipments[0]).toMatchObject({ status: 'shipped', channels: { email: 'failed', post: 'delivered' } });
    expect(shipments[0].attention).toMatch(/no e-mail address/);
    expect((await api.events(invoice.id)).filter((e) => e.kind === 'shipping_attention').map((e) => e.reason)).toEqual([
      shipments[0].attention,
    ]);
    // It went out: a note on the shipment and an event, not an entry among those that need action.
    expect((await api.get('/api/v1/shipments/attention').expect(200)).body.meta.total_count).toBe(0);
  });

  it('skip_shipping: release makes the invoice sent at once, nothing is delivered', async () => {
    const { customerId } = await customer('email');
    const invoice = await draft({ customer_id: customerId, shipping_mode: 'skip_shipping' });
    const released = await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(200);
    expect(released.body.invoice.invoice_status).toBe('sent');
    const { deliveries, shipments } = await api.deliveries(invoice.id);
    expect(deliveries).toEqual([]);
    expect(shipments).toEqual([expect.objectContaining({ shipping_mode: 'skip_shipping', mode_source: 'invoice', status: 'skipped' })]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.attempts).toBe(0);
  });

  it('manual_shipping: the letter is rendered for download, the invoice waits for the client’s confirmation', async () => {
    const { customerId, contactId } = await customer('email');
    const invoice = await draft({ customer_id: customerId, contact_id: contactId, shipping_mode: 'manual_shipping' });
    const released = await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
    expect(released.body.invoice.invoice_status).toBe('draft');
    const again = await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(409);
    expect(again.body.code).toBe('shipping.in_progress');

    const letter = await api.get(`/api/v1/invoices/${invoice.id}/letter`).expect(200);
    expect(letter.headers['content-disposition']).toBe('attachment; filename="Brief-Rechnung-2026-001.pdf"');
    expect(letter.headers['content-security-policy']).toBe('sandbox');
    expect(await pdfText(letter.body)).toContain('Rechnung 2026-001 der Muster Handel GmbH');
    const { shipments } = await api.deliveries(invoice.id);
    expect(shipments[0]).toMatchObject({
      status: 'awaiting_confirmation',
      letter_url: `https://receivables.test/api/v1/invoices/${invoice.id}/letter`,
    });

    const confirmed = await api.post(`/api/v1/invoices/${invoice.id}/confirm_shipping`).expect(200);
    expect(confirmed.body.invoice.invoice_status).toBe('sent');
    const after = await api.deliveries(invoice.id);
    expect(after.deliveries).toEqual([
      expect.objectContaining({
        channel: 'manual',
        outcome: 'delivered',
        provider: 'client',
        recipient: 'Kunde AG, Einkauf, Allee 2, 20095 Hamburg',
      }),
    ]);
    expect(after.shipments[0].status).toBe('shipped');
    const stored = await api.get(`/api/v1/invoices/${invoice.id}/letter`).expect(200);
    expect(Buffer.compare(stored.body, letter.body)).toBe(0);
    expect((await api.post(`/api/v1/invoices/${invoice.id}/confirm_shipping`).expect(409)).body.code).toBe('shipping.nothing_to_confirm');
    expect(smtp.attempts).toBe(0);
  });

  it('unknown at every level: release is refused naming the field, autosend creates the invoice flagged for attention', async () => {
    await api.patch('/api/v1/shipping_settings', { shipping_mode: 'unknown' }).expect(200);
    const { customerId } = await customer('unknown');
    const invoice = await draft({ customer_id: customerId });
    const refused = await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(422);
    expect(refused.body).toMatchObject({ code: 'shipping.not_routable', errors: [{ field: 'shipping_mode' }] });
    expect((await api.deliveries(invoice.id)).shipments).toEqual([]);

    const flagged = await draft({ customer_id: customerId, invoice_number: '2026-002', 'options[autosend]': 'true' });
    expect(flagged.invoice_status).toBe('draft');
    const { shipments, deliveries } = await api.deliveries(flagged.id);
    expect(deliveries).toEqual([]);
    expect(shipments).toEqual([
      expect.objectContaining({
        status: 'needs_attention',
        shipping_mode: 'unknown',
        mode_source: null,
        attention: 'the shipping mode is unknown at invoice, customer and company level',
      }),
    ]);
    expect((await api.events(flagged.id)).map((e) => e.kind)).toContain('shipping_attention');
    const attention = await api.get('/api/v1/shipments/attention').expect(200);
    expect(attention.body.meta.total_count).toBe(1);
    expect(attention.body.shipments[0].invoice_id).toBe(flagged.id);
  });

  it('e-mail without any address: release is refused, autosend flags; a later release after the fix settles the flag', async () => {
    const { customerId, contactId } = await customer('email', null);
    const refused = await draft({ customer_id: customerId, contact_id: contactId });
    expect((await api.post(`/api/v1/invoices/${refused.id}/release`).expect(422)).body.errors).toEqual([
      { field: 'contact_id', message: expect.stringMatching(/no e-mail address/) },
    ]);

    const invoice = await draft({
      customer_id: customerId,
      contact_id: contactId,
      invoice_number: '2026-002',
      'options[autosend]': 'true',
    });
    expect((await api.deliveries(invoice.id)).shipments[0]).toMatchObject({
      status: 'needs_attention',
      attention: expect.stringMatching(/no e-mail address/),
    });
    expect((await api.get('/api/v1/shipments/attention')).body.meta.total_count).toBe(1);

    await api.patch(`/api/v1/contacts/${contactId}`, { email: 'erika@kunde.de' }).expect(200);
    await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
    await sentOf(invoice.id);
    expect((await api.get('/api/v1/shipments/attention')).body.meta.total_count).toBe(0);
  });

  describe('reminders (shipped for the dunning engine)', () => {
    /** An invoice that the dunning engine moved to ready_for_reminder2 and its reminder 2 (fee 2.50, not yet booked). */
    async function readyReminder(mode: string, reminderMode: string | null = null, email: string | null = 'erika@kunde.de') {
      const { customerId, contactId } = await customer(mode, email);
      const invoice = await draft({ customer_id: customerId, contact_id: contactId, 'options[autoskip_shipping]': 'true' });
      const companyId = parsePublicId('cmp', company.id) as string;
      const invoiceId = parsePublicId('inv', invoice.id) as string;
      await t.db.query(`UPDATE invoices SET status = 'ready_for_reminder2' WHERE company_id = $1 AND id = $2`, [companyId, invoiceId]);
      const [{ id }] = await t.db.query(
        `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, fees, shipping_mode) VALUES ($1, gen_random_uuid(), $2, 2, '2026-12-07', 2.50, $3) RETURNING id`,
        [companyId, invoiceId, reminderMode],
      );
      return { invoice, companyId, invoiceId, reminderId: id as string, customerId, contactId };
    }

    const ship = (
      companyId: string,
      reminderId: string,
      before?: (q: (sql: string, params: unknown[]) => Promise<unknown>) => Promise<unknown>,
    ) =>
      t.db.transaction(async (manager) => {
        const shipment = await t.app.get(ShippingService).shipReminder(manager, companyId, reminderId, { type: 'run', id: 'run-1' });
        if (before) await before((sql, params) => manager.query(sql, params));
        return shipment;
      });

    it('e-mails the reminder letter, sets last_sent_at and applies send_reminder2; the letter download is the attachment', async () => {
      const { invoice, companyId, reminderId } = await readyReminder('email');
      const first = await ship(companyId, reminderId);
      const again = await ship(companyId, reminderId);
      expect(again.id).toBe(first.id);
      await waitFor(async () => (await api.invoiceStatus(invoice.id)) === 'reminder2_sent', 'reminder2_sent');

      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail.parsed.subject).toBe('1. Mahnung zur Rechnung 2026-001');
      expect(mail.parsed.text).toMatch(
        /^Sehr geehrte Frau Muster,\n\nanbei erhalten Sie unsere 1\. Mahnung zur Rechnung 2026-001\. Der offene Betrag beträgt 121,50\u00a0€; bitte überweisen Sie ihn bis zum 14\.12\.2026\./,
      );
      expect(mail.parsed.attachments.map((a) => a.filename)).toEqual(['1._Mahnung-2026-001.pdf']);

      const remId = `rem-${reminderId}`;
      const download = await api.get(`/api/v1/invoices/${invoice.id}/reminders/${remId}/letter`).expect(200);
      expect(Buffer.compare(download.body, mail.parsed.attachments[0].content)).toBe(0);
      const [page] = await pdfPages(download.body);
      // The address block: its lines in order, each starting a line of the page (the info block may share the baseline).
      const address = ['Kunde AG', 'Einkauf', 'Allee 2', '20095 Hamburg'].map((line) => page.findIndex((l) => l.startsWith(line)));
      expect(address.every((i) => i > 0) && [...address].sort((a, b) => a - b).join() === address.join()).toBe(true);
      const text = page.join(' ');
      for (const line of [
        'Muster Handel GmbH · Hauptstraße 5 · 10115 Berlin',
        '1. Mahnung zur Rechnung 2026-001',
        'Sehr geehrte Frau Muster,',
        'Rechnung 2026-001 vom 02.11.2026 119,00 €',
        'Mahnkosten 2,50 €',
        'Offener Betrag 121,50 €',
        'Bitte überweisen Sie den offenen Betrag von 121,50 € bis zum 14.12.2026 auf unser Konto IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX (Commerzbank).',
      ]) {
        expect(text).toContain(line);
      }
      const [reminder] = await t.db.query(`SELECT last_sent_at, shipping_mode FROM reminders WHERE id = $1`, [reminderId]);
      expect(reminder.last_sent_at).toBeInstanceOf(Date);
      expect(reminder.shipping_mode).toBe('email');
      const read = await api.get(`/api/v1/invoices/${invoice.id}`).expect(200);
      expect(read.body.invoice.reminders[0]).toMatchObject({ id: remId, reminder_stage: 2, shipping_mode: 'email' });
      expect(read.body.invoice.reminders[0].last_sent_at).not.toBeNull();
      const events = await api.events(invoice.id);
      expect(events.find((e) => e.to_status === 'reminder2_sent')).toMatchObject({ actor: { type: 'run' }, reason: 'shipped by e-mail' });
    });

    it('cancels the delivery and records why when the invoice was paid before the reminder went out', async () => {
      const { invoice, companyId, invoiceId, reminderId } = await readyReminder('email');
      await ship(companyId, reminderId, (query) =>
        query(
          `UPDATE invoices SET status = 'paid', status_before_paid = 'ready_for_reminder2', paid_amount = original_total, open_amount = 0 WHERE company_id = $1 AND id = $2`,
          [companyId, invoiceId],
        ),
      );
      const { deliveries, shipments } = await waitFor(async () => {
        const found = await api.deliveries(invoice.id);
        return found.deliveries.length > 0 && found;
      }, 'the cancelled delivery');
      expect(deliveries).toEqual([
        expect.objectContaining({
          channel: 'email',
          outcome: 'cancelled',
          error: 'the invoice was paid in the meantime',
          reminder_id: `rem-${reminderId}`,
        }),
      ]);
      expect(shipments).toEqual([expect.objectContaining({ document: 'reminder', status: 'cancelled' })]);
      expect(smtp.attempts).toBe(0);
      const [reminder] = await t.db.query(`SELECT last_sent_at FROM reminders WHERE id = $1`, [reminderId]);
      expect(reminder.last_sent_at).toBeNull();
      expect(await api.invoiceStatus(invoice.id)).toBe('paid');
      expect((await api.events(invoice.id)).find((e) => e.kind === 'shipping_cancelled')?.reason).toBe(
        'the invoice was paid in the meantime',
      );
    });

    it('posts a reminder letter into the print batch', async () => {
      const { invoice, companyId, reminderId } = await readyReminder('post');
      await ship(companyId, reminderId);
      await waitFor(async () => (await api.invoiceStatus(invoice.id)) === 'reminder2_sent', 'reminder2_sent');
      const { manifest, batch } = await printBatch();
      expect(manifest).toContain(',1. Mahnung 2026-001,');
      expect(await pdfText(batch)).toContain('Offener Betrag 121,50 €');
    });

    it('previews the letter of a reminder that has not gone out, and 404s for another company', async () => {
      const { invoice, reminderId } = await readyReminder('email', 'manual_shipping');
      const preview = await api.get(`/api/v1/invoices/${invoice.id}/reminders/rem-${reminderId}/letter`).expect(200);
      expect(await pdfText(preview.body)).toContain('1. Mahnung zur Rechnung 2026-001');
      await api.get(`/api/v1/invoices/${invoice.id}/reminders/rem-00000000-0000-4000-8000-000000000000/letter`).expect(404);
      const other = await registerCompany(t.app);
      const as = (req: request.Test) => req.set('Authorization', other.auth);
      const http = () => t.http;
      await as(http().get(`/api/v1/invoices/${invoice.id}/reminders/rem-${reminderId}/letter`)).expect(404);
      await as(http().get(`/api/v1/invoices/${invoice.id}/deliveries`)).expect(404);
      await as(http().get(`/api/v1/invoices/${invoice.id}/letter`)).expect(404);
      await as(http().post(`/api/v1/invoices/${invoice.id}/confirm_shipping`)).expect(404);
      expect((await as(http().get('/api/v1/shipments/attention')).expect(200)).body.meta.total_count).toBe(0);
    });

    it('a reminder whose mode is unknown at every level is flagged, findable, refused when shipped by hand, and goes out once a level names a mode', async () => {
      await api.patch('/api/v1/shipping_settings', { shipping_mode: 'unknown' }).expect(200);
      const { invoice, companyId, reminderId, customerId } = await readyReminder('unknown');
      const shipment = await ship(companyId, reminderId);
      expect(shipment).toMatchObject({
        status: 'needs_attention',
        shippingMode: 'unknown',
        attention: 'the shipping mode is unknown at invoice, customer and company level',
      });
      expect(await api.invoiceStatus(invoice.id)).toBe('ready_for_reminder2');
      expect((await api.events(invoice.id)).filter((e) => e.kind === 'shipping_attention').map((e) => e.reason)).toEqual([
        shipment.attention,
      ]);
      const listed = await api.get(`/api/v1/shipments/attention?document=reminder&invoice_id=${invoice.id}`).expect(200);
      expect(listed.body.shipments).toEqual([
        expect.objectContaining({ invoice_id: invoice.id, reminder_id: `rem-${reminderId}`, status: 'needs_attention' }),
      ]);
      expect((await api.get('/api/v1/shipments/attention?document=invoice').expect(200)).body.meta.total_count).toBe(0);
      expect((await api.get('/api/v1/shipments/attention?invoice_id=nope').expect(400)).body.errors[0].field).toBe('invoice_id');

      await t.db.query(`UPDATE reminders SET dispatched_at = now() WHERE id = $1`, [reminderId]); // issued by the run
      const path = `/api/v1/invoices/${invoice.id}/reminders/rem-${reminderId}/ship`;
      const refused = await api.post(path).expect(422);
      expect(refused.body).toMatchObject({ code: 'shipping.not_routable', errors: [{ field: 'shipping_mode' }] });
      await api.patch(`/api/v1/customers/${customerId}`, { shipping_mode: 'email' }).expect(200);
      await api.post(path).expect(202);
      await waitFor(async () => (await api.invoiceStatus(invoice.id)) === 'reminder2_sent', 'reminder2_sent');
      expect(smtp.received.map((m) => m.parsed.subject)).toEqual(['1. Mahnung zur Rechnung 2026-001']);
      expect((await api.get('/api/v1/shipments/attention').expect(200)).body.meta.total_count).toBe(0);
    });

    it('a reminder by e-mail without any address is flagged, not sent; once the contact has one it is shipped again', async () => {
      const { invoice, companyId, reminderId, contactId } = await readyReminder('email', null, null);
      const shipment = await ship(companyId, reminderId);
      expect(shipment).toMatchObject({ status: 'needs_attention', attention: expect.stringMatching(/no e-mail address/) });
      const listed = await api.get('/api/v1/shipments/attention').expect(200);
      expect(listed.body.shipments).toEqual([expect.objectContaining({ document: 'reminder', reminder_id: `rem-${reminderId}` })]);
      await t.db.query(`UPDATE reminders SET dispatched_at = now() WHERE id = $1`, [reminderId]);
      const path = `/api/v1/invoices/${invoice.id}/reminders/rem-${reminderId}/ship`;
      expect((await api.post(path).expect(422)).body.errors).toEqual([
        { field: 'contact_id', message: expect.stringMatching(/no e-mail address/) },
      ]);
      await api.patch(`/api/v1/contacts/${contactId}`, { email: 'erika@kunde.de' }).expect(200);
      await api.post(path).expect(202);
      await waitFor(async () => (await api.invoiceStatus(invoice.id)) === 'reminder2_sent', 'reminder2_sent');
      expect(smtp.received.map((m) => m.to)).toEqual([['erika@kunde.de']]);
      expect(smtp.attempts).toBe(1);
    });

    it('manual shipping of a reminder waits for the confirmation', async () => {
      const { invoice, companyId, reminderId } = await readyReminder('email', 'manual_shipping');
      const shipment = await ship(companyId, reminderId);
      expect(shipment.status).toBe('awaiting_confirmation');
      const confirmed = await api.post(`/api/v1/invoices/${invoice.id}/reminders/rem-${reminderId}/confirm_shipping`).expect(200);
      expect(confirmed.body.invoice.invoice_status).toBe('reminder2_sent');
    });
  });

  describe('invoices without a PDF of their own (as the ERP pull stores them)', () => {
    /** A draft whose PDF the service does not hold: pdf_key NULL, as pulled invoices have it. */
    async function withoutPdf(mode: string, fields: Record<string, string> = {}) {
      const { customerId, contactId } = await customer(mode);
      const invoice = await draft({ customer_id: customerId, contact_id: contactId, ...fields });
      await t.db.query(`UPDATE invoices SET pdf_key = NULL, pdf_size = NULL, pdf_sha256 = NULL WHERE id = $1`, [
        parsePublicId('inv', invoice.id),
      ]);
      return invoice;
    }

    it('e-mail: the service renders a payment request naming the invoice (DIN 5008, no VAT shown), attaches it and keeps it as the invoice PDF', async () => {
      const invoice = await withoutPdf('email', { net: '100.00', vat19: '19.00' });
      const missing = await api.get(`/api/v1/invoices/${invoice.id}/pdf`).expect(404);
      expect(missing.body).toMatchObject({
        code: 'invoice.document_missing',
        detail: expect.stringContaining(`/api/v1/invoices/${invoice.id}/letter`),
      });
      const preview = await api.get(`/api/v1/invoices/${invoice.id}/letter`).expect(200);
      const [page, ...more] = await pdfPages(preview.body);
      expect(more).toEqual([]);
      for (const line of [
        'Muster Handel GmbH · Hauptstraße 5 · 10115 Berlin',
        'Kunde AG',
        '20095 Hamburg',
        'Zahlungsaufforderung / Rechnungskopie zur Rechnung Nr. 2026-001',
        'Sehr geehrte Frau Muster,',
        'Zu zahlender Betrag 119,00 €',
      ]) {
        expect(page.join('\n')).toContain(line);
      }
      // Without line items it is no complete invoice (invoice-kind.ts): it shows no VAT, so it cannot pass for one.
      expect(page.join('\n')).not.toMatch(/Nettobetrag|USt\./);
      await api.get(`/api/v1/invoices/${invoice.id}/pdf`).expect(404); // a preview stores nothing

      await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
      await sentOf(invoice.id);
      const [attachment] = smtp.received[0].parsed.attachments;
      expect(attachment.filename).toBe('Zahlungsaufforderung-2026-001.pdf');
      // The company's invoice text would say the invoice is attached: the e-mail says what is.
      expect(smtp.received[0].parsed.subject).toBe('Zahlungsaufforderung zur Rechnung 2026-001 von Muster Handel GmbH');
      expect(smtp.received[0].parsed.text).toContain(
        'anbei erhalten Sie unsere Zahlungsaufforderung zur Rechnung 2026-001 vom 02.11.2026 über 119,00\u00a0€.',
      );
      const text = (await pdfText(attachment.content)).replace(/\n/g, ' ');
      expect(text).toContain('Zu zahlender Betrag 119,00 €');
      expect(text).toContain(
        'Bitte überweisen Sie den offenen Betrag von 119,00 € bis zum 16.11.2026 auf unser Konto IBAN DE89 3704 0044 0532 0130 00',
      );
      const stored = await api.get(`/api/v1/invoices/${invoice.id}/pdf`).expect(200);
      expect(Buffer.compare(stored.body, attachment.content)).toBe(0);
    });

    it('post: the rendered payment request is the letter — window-ready, so no cover page even when the company asks for one', async () => {
      await api.patch('/api/v1/shipping_settings', { cover_page: 'true' }).expect(200);
      const invoice = await withoutPdf('post');
      await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
      await sentOf(invoice.id);
      const { manifest, batch } = await printBatch();
      expect(manifest.trim().split('\r\n')[1]).toMatch(/^1,1,1,/);
      const [page] = await pdfPages(batch);
      const address = ['Kunde AG', 'Einkauf', 'Allee 2', '20095 Hamburg'].map((line) => page.findIndex((l) => l.startsWith(line)));
      expect(address.every((i) => i > 0) && [...address].sort((a, b) => a - b).join() === address.join()).toBe(true);
      expect(page.join('\n')).toContain('Zu zahlender Betrag 119,00 €');
      const stored = await api.get(`/api/v1/invoices/${invoice.id}/pdf`).expect(200);
      expect(await pdfText(stored.body)).toContain('Rechnungskopie zur Rechnung Nr. 2026-001');
    });
  });

  describe('company defaults (PATCH /api/v1/shipping_settings)', () => {
    it('the company level names the mode when invoice and customer do not', async () => {
      const settings = await api.patch('/api/v1/shipping_settings', { shipping_mode: 'post' }).expect(200);
      expect(settings.body.shipping_settings).toMatchObject({ shipping_mode: 'post', autosend: false, autoskip_shipping: false });
      const { customerId, contactId } = await customer(null);
      const invoice = await draft({ customer_id: customerId, contact_id: contactId });
      await api.post(`/api/v1/invoices/${invoice.id}/release`).expect(202);
      await sentOf(invoice.id);
      const { shipments, deliveries } = await api.deliveries(invoice.id);
      expect(shipments[0]).toMatchObject({ shipping_mode: 'post', mode_source: 'company', status: 'shipped' });
      expect(deliveries.map((d) => d.channel)).toEqual(['post']);
      expect(smtp.attempts).toBe(0);
      // The customer's own mode still comes first.
      await api.patch(`/api/v1/customers/${customerId}`, { shipping_mode: 'email' }).expect(200);
      const second = await draft({ customer_id: customerId, contact_id: contactId, invoice_number: '2026-002' });
      await api.post(`/api/v1/invoices/${second.id}/release`).expect(202);
      await sentOf(second.id);
      expect((await api.deliveries(second.id)).shipments[0]).toMatchObject({ shipping_mode: 'email', mode_source: 'customer' });
    });

    it('autosend ships new invoices without the option; autoskip imports them as sent; a request option overrides both', async () => {
      const { customerId, contactId } = await customer('email');
      await api.patch('/api/v1/shipping_settings', { autosend: 'true' }).expect(200);
      const autosent = await draft({ customer_id: customerId, contact_id: contactId });
      expect(autosent.invoice_status).toBe('draft');
      await sentOf(autosent.id);
      expect((await api.deliveries(autosent.id)).shipments[0]).toMatchObject({ status: 'shipped', mode_source: 'customer' });
      const kept = await draft({
        customer_id: customerId,
        contact_id: contactId,
        invoice_number: '2026-002',
        'options[autosend]': 'false',
      });
      expect((await api.deliveries(kept.id)).shipments).toEqual([]);

      const both = await api.patch('/api/v1/shipping_settings', { autoskip_shipping: 'true' }).expect(422);
      expect(both.body.errors.map((e: { field: string }) => e.field)).toEqual(['autosend', 'autoskip_shipping']);
      const settings = await api.patch('/api/v1/shipping_settings', { autosend: 'false', autoskip_shipping: 'true' }).expect(200);
      expect(settings.body.shipping_settings).toMatchObject({ shipping_mode: 'email', autosend: false, autoskip_shipping: true });
      const skipped = await draft({ customer_id: customerId, contact_id: contactId, invoice_number: '2026-003' });
      expect(skipped).toMatchObject({ invoice_status: 'sent', shipping_mode: 'skip_shipping' });
      expect((await api.deliveries(skipped.id)).shipments).toEqual([]);
      const sentAnyway = await draft({
        customer_id: customerId,
        contact_id: contactId,
        invoice_number: '2026-004',
        'options[autosend]': 'true',
      });
      expect(sentAnyway.invoice_status).toBe('draft');
      await sentOf(sentAnyway.id);
      expect(smtp.received.map((m) => m.parsed.subject)).toEqual([
        'Rechnung 2026-001 von Muster Handel GmbH',
        'Rechnung 2026-004 von Muster Handel GmbH',
      ]);

      expect((await api.patch('/api/v1/shipping_settings', { shipping_mode: 'fax' }).expect(422)).body.errors[0].field).toBe(
        'shipping_mode',
      );
      // Another company keeps its own defaults.
      const other = await registerCompany(t.app);
      const theirs = await t.http.get('/api/v1/shipping_settings').set('Authorization', other.auth).expect(200);
      expect(theirs.body.shipping_settings).toMatchObject({ shipping_mode: 'email', autosend: false, autoskip_shipping: false });
    });
  });

  describe('per-company templates', () => {
    it("a company's subject, body, reminder title and cover text reach its mails and letters, and only its own", async () => {
      await api
        .patch('/api/v1/shipping_settings', {
          invoice_email_subject: 'Ihre Rechnung {invoice_number} ({customer_name})',
          invoice_email_body:
            '{salutation},\n\nRechnung {invoice_number} über {total} EUR, zahlbar bis {due_date}.\n\nViele Grüße\n{company_name}',
          reminder_email_subject: '{reminder_title}: {invoice_number}',
          reminder2_title: 'Zweite Mahnung',
          cover_letter_text: 'hier kommt Rechnung {invoice_number} für {customer_name}.',
          cover_page: 'true',
        })
        .expect(200);
      const other = await registerCompany(t.app, 'Andere GmbH');
      const theirs = shippingApi(t.app, other);
      const theirCustomer = await theirs.customer({
        name: 'Fremd AG',
        address_line1: 'Fremd AG',
        address_line3: 'Weg 1',
        zip: '10115',
        city: 'Berlin',
        country_code: 'DE',
        shipping_mode: 'email',
      });
      const theirContact = await theirs.contact({
        customer_id: theirCustomer.id,
        name: 'Otto Fremd',
        gender: '1',
        salutation: '0',
        email: 'otto@fremd.de',
      });

      const { customerId, contactId } = await customer('email');
      const ours = await draft({ customer_id: customerId, contact_id: contactId, 'options[autosend]': 'true' });
      await sentOf(ours.id);
      const other1 = await theirs
        .createInvoice(
          {
            customer_id: theirCustomer.id,
            contact_id: theirContact.id,
            invoice_number: 'F-1',
            total: '10',
            due_date: '2026-12-31',
            'options[autosend]': 'true',
          },
          invoicePdf,
        )
        .expect(201);
      await waitFor(async () => (await theirs.invoiceStatus(other1.body.invoice.id)) === 'sent', 'their invoice sent');

      const mine = smtp.received.find((m) => m.to.includes('erika@kunde.de'))!;
      expect(mine.parsed.subject).toBe('Ihre Rechnung 2026-001 (Kunde AG)');
      // The company's template, then its details below the signature separator (an e-mail is a business letter).
      expect(mine.parsed.text).toBe(
        'Sehr geehrte Frau Muster,\n\nRechnung 2026-001 über 119,00 EUR, zahlbar bis 16.11.2026.\n\nViele Grüße\nMuster Handel GmbH' +
          '\n\n-- \nMuster Handel GmbH\nHauptstraße 5, 10115 Berlin\nIBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX, Commerzbank\n',
      );
      const theirMail = smtp.received.find((m) => m.to.includes('otto@fremd.de'))!;
      expect(theirMail.parsed.subject).toBe('Rechnung F-1 von Andere GmbH');
      expect(theirMail.parsed.text).toMatch(/^Sehr geehrter Herr Fremd,\n\nanbei erhalten Sie unsere Rechnung F-1 vom /);

      // A reminder of level 2: the company's title in the subject and on the letter.
      const companyId = parsePublicId('cmp', company.id) as string;
      const invoiceId = parsePublicId('inv', ours.id) as string;
      await t.db.query(`UPDATE invoices SET status = 'ready_for_reminder2' WHERE company_id = $1 AND id = $2`, [companyId, invoiceId]);
      const [{ id: reminderId }] = await t.db.query(
        `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, fees) VALUES ($1, gen_random_uuid(), $2, 2, '2026-12-07', 2.50) RETURNING id`,
        [companyId, invoiceId],
      );
      await t.db.transaction((manager) =>
        t.app.get(ShippingService).shipReminder(manager, companyId, reminderId, { type: 'run', id: 'run-1' }),
      );
      await waitFor(async () => (await api.invoiceStatus(ours.id)) === 'reminder2_sent', 'reminder2_sent');
      const reminderMail = smtp.received.find((m) => m.parsed.subject?.startsWith('Zweite Mahnung'))!;
      expect(reminderMail.parsed.subject).toBe('Zweite Mahnung: 2026-001');
      expect(reminderMail.parsed.attachments[0].filename).toBe('Zweite_Mahnung-2026-001.pdf');
      expect(await pdfText(reminderMail.parsed.attachments[0].content)).toContain('Zweite Mahnung zur Rechnung 2026-001');

      // By post with the cover page: the company's cover text, to a customer whose name and city are not Latin-1.
      const polish = await api.customer({
        name: 'Łukasz Wójcik',
        address_line1: 'Łukasz Wójcik',
        address_line3: 'ul. Żeromskiego 12',
        zip: '90-001',
        city: 'Łódź',
        country_code: 'PL',
        shipping_mode: 'post',
      });
      const posted = await draft({ customer_id: polish.id, invoice_number: '2026-002' });
      await api.post(`/api/v1/invoices/${posted.id}/release`).expect(202);
      await sentOf(posted.id);
      const [cover] = await pdfPages((await printBatch()).batch);
      expect(cover).toEqual(expect.arrayContaining(['Łukasz Wójcik', 'ul. Żeromskiego 12', '90-001 Łódź', 'POLEN']));
      expect(cover.join(' ')).toContain('hier kommt Rechnung 2026-002 für Łukasz Wójcik.');
    });
  });

  describe('shipping settings', () => {
    it('has German defaults and refuses unknown placeholders and a wrong IBAN', async () => {
      const defaults = await api.get('/api/v1/shipping_settings').expect(200);
      expect(defaults.body.shipping_settings).toMatchObject({
        cover_page: false,
        invoice_email_subject: 'Rechnung {invoice_number} von {company_name}',
        reminder1_title: 'Zahlungserinnerung',
        bank_iban: 'DE89370400440532013000',
      });
      const refused = await api
        .patch('/api/v1/shipping_settings', { invoice_email_subject: 'RE {invoice_nr}', bank_iban: 'DE00 1234' })
        .expect(422);
      expect(refused.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['bank_iban']);
      const placeholders = await api.patch('/api/v1/shipping_settings', { invoice_email_subject: 'RE {invoice_nr}' }).expect(422);
      expect(placeholders.body.errors).toEqual([{ field: 'invoice_email_subject', message: expect.stringContaining('{invoice_nr}') }]);
      const changed = await api
        .patch('/api/v1/shipping_settings', { invoice_email_subject: 'Ihre Rechnung {invoice_number}', reminder1_title: '' })
        .expect(200);
      expect(changed.body.shipping_settings).toMatchObject({
        invoice_email_subject: 'Ihre Rechnung {invoice_number}',
        reminder1_title: 'Zahlungserinnerung',
        sender_city: 'Berlin',
      });
    });
  });
});
