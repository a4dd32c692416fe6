// Pushed invoices changing over time: a new PDF never overwrites the stored one before the commit (a
// failed attempt leaves it intact), a rendered PDF follows its draft's changes, fields are kept or
// cleared as the document says, a released invoice keeps its PDF, and autoskip_shipping / autosend
// release the invoice as POST /api/v1/invoices does (autosend through the shipping service).
import { jest } from '@jest/globals';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { InvoicesRepository } from '../../src/invoices/invoices.repository.js';
import { makePdf } from '../support/pdf.js';
import { pdfText } from '../support/pdf-text.js';
import { apiKeyAuth, auditSteps, invoiceDocument, pushAccepted, quickPush, waitForStatus } from '../support/push.js';
import { shippingApi, shippingTestConfig, waitFor } from '../support/shipping.js';
import { registerCompany, TEST_DATA_DIR, type TestCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

describe('push: invoices that change', () => {
  let company: TestCompany;
  let auth: string;
  let pdfA: Buffer;
  let pdfB: Buffer;

  // Retries after 2–4 s: long enough to look at a failed attempt before the retry runs.
  const t = useTestApp(quickPush({ retryBaseSeconds: 2 }, shippingTestConfig()));
  beforeAll(async () => {
    pdfA = await makePdf('Rechnung Fassung A');
    pdfB = await makePdf('Rechnung Fassung B');
  });
  beforeEach(async () => {
    company = await registerCompany(t.app, 'Push Rechnungen GmbH');
    auth = apiKeyAuth(company.apiKey);
    await shippingApi(t.app, company)
      .patch('/api/v1/shipping_settings', {
        sender_street: 'Hauptstraße 5',
        sender_zip: '10115',
        sender_city: 'Berlin',
        bank_iban: 'DE89 3704 0044 0532 0130 00',
      })
      .expect(200);
  });
  afterEach(() => jest.restoreAllMocks());

  const http = () => t.http;
  const processed = async (body: object) => waitForStatus(t.app, auth, await pushAccepted(t.app, auth, body), ['processed']);
  const invoice = async (id: string) =>
    (await http().get(`/api/v1/invoices/${id}`).set('Authorization', company.auth).expect(200)).body.invoice;
  const storedPdf = async (id: string): Promise<Buffer> => {
    const res = await http()
      .get(`/api/v1/invoices/${id}/pdf`)
      .set('Authorization', company.auth)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return res.body as Buffer;
  };
  /** The invoice's row (pdf key) and the files its folder in the local document store holds. */
  const files = async (id: string) => {
    const [row] = await t.db.query(`SELECT pdf_key, company_id FROM invoices WHERE id = $1`, [id.slice(4)]);
    const folder = join(TEST_DATA_DIR, 'documents', row.company_id, 'invoices', id.slice(4));
    return { key: row.pdf_key as string, stored: (await readdir(folder)).filter((name) => !name.startsWith('.')).sort() };
  };
  const basename = (key: string) => key.split('/').pop();

  it('stores a draft’s new PDF under a new key and removes the old one after the commit; a failed attempt leaves the stored PDF as it was', async () => {
    const first = await processed(invoiceDocument('RE-A', 'K-1', { pdf: pdfA.toString('base64') }));
    const id = first.result!.id;
    const before = await files(id);
    expect(before.stored).toEqual([basename(before.key)]);

    jest.spyOn(t.app.get(InvoicesRepository), 'update').mockRejectedValueOnce(new Error('injected failure after the PDF was stored'));
    const changed = await pushAccepted(t.app, auth, invoiceDocument('RE-A', 'K-1', { pdf: pdfB.toString('base64'), amount: '150.00' }));
    const failed = await waitForStatus(t.app, auth, changed, ['failed']);
    expect(failed.last_error).toBe('injected failure after the PDF was stored');
    expect(Buffer.compare(await storedPdf(id), pdfA)).toBe(0);
    expect(await files(id)).toEqual(before);
    expect((await invoice(id)).original_total).toBe('119.0');

    await waitForStatus(t.app, auth, changed, ['processed'], 60_000);
    expect(Buffer.compare(await storedPdf(id), pdfB)).toBe(0);
    const after = await files(id);
    expect(after.key).not.toBe(before.key);
    expect(after.stored).toEqual([basename(after.key)]);
    expect(await invoice(id)).toMatchObject({ original_total: '150.0', open_amount: '150.0', invoice_status: 'draft' });
    const events = await shippingApi(t.app, company).events(id);
    expect(events.find((e) => e.kind === 'updated')).toMatchObject({ actor: { type: 'push' } });
  }, 90_000);

  it('renders a draft’s PDF again when the document changes it; a field left out stays, a field sent as null is cleared', async () => {
    const first = await processed(
      invoiceDocument('RE-B', 'K-2', { additional_number: 'PO-7', order_date: '2026-10-30', amount: '11900.5' }),
    );
    const id = first.result!.id;
    expect(await pdfText(await storedPdf(id))).toMatch(
      /Ihre Referenz PO-7[\s\S]*Auftragsdatum 30.10.2026[\s\S]*Rechnung Nr. R-RE-B[\s\S]*Zu zahlender Betrag 11.900,50 €/,
    );
    const old = await files(id);

    // additional_number is left out (kept); invoice_number and order_date are sent as null (cleared).
    const doc = invoiceDocument('RE-B', 'K-2', { amount: '200.00', invoice_number: null, order_date: null });
    const second = await processed(doc);
    expect(second.outcome).toBe('applied');
    expect(await invoice(id)).toMatchObject({ invoice_number: null, additional_number: 'PO-7', order_date: null, original_total: '200.0' });
    const text = await pdfText(await storedPdf(id));
    expect(text).toContain('Rechnung Nr. RE-B');
    expect(text).toContain('Zu zahlender Betrag 200,00 €');
    expect(text).not.toContain('Auftragsdatum');
    const now = await files(id);
    expect(now.key).toMatch(/\/rendered-[0-9a-f-]{36}\.pdf$/);
    expect(now.stored).toEqual([basename(now.key)]);
    expect(now.key).not.toBe(old.key);

    // A version that changes nothing of the invoice (the time for payment it already has) renders nothing.
    const third = await processed({ ...doc, time_for_payment: 14 });
    expect(third.outcome).toBe('unchanged');
    expect((await files(id)).key).toBe(now.key);
  });

  it('keeps the PDF a released invoice went out with, applies what may still change, and dead-letters what may not', async () => {
    const first = await processed(invoiceDocument('RE-C', 'K-3', { pdf: pdfA.toString('base64'), options: { autoskip_shipping: true } }));
    const id = first.result!.id;
    expect(await invoice(id)).toMatchObject({ invoice_status: 'sent', shipping_mode: 'skip_shipping' });

    const second = await processed(
      invoiceDocument('RE-C', 'K-3', { pdf: pdfB.toString('base64'), additional_number: 'PO-9', options: { autoskip_shipping: true } }),
    );
    expect(await invoice(id)).toMatchObject({ additional_number: 'PO-9', invoice_status: 'sent' });
    expect(Buffer.compare(await storedPdf(id), pdfA)).toBe(0);
    const [succeeded] = await t.db.query(`SELECT details FROM push_audit_log WHERE document_id = $1 AND step = 'succeeded'`, [
      second.id.slice(4),
    ]);
    expect(succeeded.details.notes).toEqual([expect.stringMatching(/^pdf: kept the PDF the invoice was released with \(status sent\)/)]);

    const third = await pushAccepted(t.app, auth, invoiceDocument('RE-C', 'K-3', { pdf: pdfA.toString('base64'), amount: '99.00' }));
    const dead = await waitForStatus(t.app, auth, third, ['dead_lettered']);
    expect(dead).toMatchObject({
      attempts: 1,
      last_error: expect.stringMatching(/^invoice\.not_editable: In status sent these fields can no longer change: total/),
    });
    expect(await auditSteps(t.app, third)).toEqual(['received', 'attempt 1', 'failed 1', 'dead_lettered']);
    expect((await invoice(id)).original_total).toBe('119.0');
  });

  it('dead-letters at once a version whose due date falls before the stored invoice date (not checkable at push time)', async () => {
    await processed(invoiceDocument('RE-G', 'K-7'));
    const { invoice_date: _kept, ...withoutInvoiceDate } = invoiceDocument('RE-G', 'K-7', { due_date: '2026-10-01' });
    const id = await pushAccepted(t.app, auth, withoutInvoiceDate);
    const dead = await waitForStatus(t.app, auth, id, ['dead_lettered']);
    expect(dead).toMatchObject({
      attempts: 1,
      last_error: 'validation.failed: The request has invalid fields (due_date: due_date must not be before invoice_date)',
    });
  });

  it('ships an invoice pushed with options[autosend] through the shipping service (post): a letter in the print batch, then sent', async () => {
    const doc = await processed(invoiceDocument('RE-D', 'K-4', { shipping_mode: 'post', options: { autosend: true } }));
    const id = doc.result!.id;
    const api = shippingApi(t.app, company);
    await waitFor(async () => (await api.invoiceStatus(id)) === 'sent', 'the invoice to be shipped', 30_000);
    const { deliveries, shipments } = await api.deliveries(id);
    expect(shipments).toEqual([expect.objectContaining({ shipping_mode: 'post', status: 'shipped' })]);
    expect(deliveries).toEqual([expect.objectContaining({ channel: 'post', outcome: 'delivered' })]);
    expect((await api.events(id)).filter((e) => e.to_status === 'sent')).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ type: expect.any(String) }) }),
    ]);
  });

  it("lets the document's options[autosend] set aside the company's autoskip default, as POST /api/v1/invoices does", async () => {
    const api = shippingApi(t.app, company);
    await api.patch('/api/v1/shipping_settings', { autoskip_shipping: true }).expect(200);
    const doc = await processed(invoiceDocument('RE-G', 'K-6', { shipping_mode: 'post', options: { autosend: true } }));
    const id = doc.result!.id;
    await waitFor(async () => (await api.invoiceStatus(id)) === 'sent', 'the invoice to be shipped', 30_000);
    expect((await api.deliveries(id)).shipments).toEqual([expect.objectContaining({ shipping_mode: 'post', status: 'shipped' })]);
    // Without an option, the company's autoskip holds: sent at once, nothing shipped by the service.
    const skipped = (await processed(invoiceDocument('RE-H', 'K-6'))).result!.id;
    expect(await api.invoiceStatus(skipped)).toBe('sent');
    expect((await api.deliveries(skipped)).shipments).toEqual([]);
  });

  it('releases a pushed draft when a later version asks for autosend', async () => {
    const first = await processed(invoiceDocument('RE-E', 'K-5', { shipping_mode: 'post' }));
    const id = first.result!.id;
    expect((await invoice(id)).invoice_status).toBe('draft');
    await processed(invoiceDocument('RE-E', 'K-5', { shipping_mode: 'post', options: { autosend: true } }));
    const api = shippingApi(t.app, company);
    await waitFor(async () => (await api.invoiceStatus(id)) === 'sent', 'the invoice to be shipped', 30_000);
    expect((await api.deliveries(id)).deliveries).toEqual([expect.objectContaining({ channel: 'post', outcome: 'delivered' })]);
  });

  it('retries an invoice whose customer is not there yet, and processes it once the customer is pushed', async () => {
    const { customer: _none, ...bare } = invoiceDocument('RE-F', 'K-LATE');
    const id = await pushAccepted(t.app, auth, bare);
    const failed = await waitForStatus(t.app, auth, id, ['failed']);
    expect(failed.last_error).toMatch(/^customer\.not_found: No customer with external_id "K-LATE"/);
    await processed({ document_type: 'customer', external_id: 'K-LATE', ...invoiceDocument('x', 'K-LATE').customer });
    const done = await waitForStatus(t.app, auth, id, ['processed'], 60_000);
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    expect(await invoice(done.result!.id)).toMatchObject({ external_id: 'RE-F', invoice_status: 'draft' });
  }, 90_000);
});
