// What the service renders for a pushed invoice without a PDF (src/shipping/letters/invoice-kind.ts):
// (a) a complete invoice (§ 14 (4) UStG) when the document carries line items and a delivery date and the
// company's settings name its address and VAT ID; (c) otherwise a payment request that refers to the
// original invoice by number and date, shows no VAT and is not titled as an invoice. Read back as text.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePublicId } from '../../src/common/ids.js';
import { DIN5008 } from '../../src/letters/din5008.js';
import { PostalProvider } from '../../src/shipping/postal/postal-provider.js';
import type { PrintBatchProvider } from '../../src/shipping/postal/print-batch.provider.js';
import { LEGAL_DETAILS } from '../support/dunning.js';
import { findLine, renderPdf } from '../support/pdf-render.js';
import { pdfPages } from '../support/pdf-text.js';
import { apiKeyAuth, invoiceDocument, pushAccepted, pushDocument, quickPush, waitForStatus } from '../support/push.js';
import { shippingApi, shippingTestConfig, waitFor } from '../support/shipping.js';
import { registerCompany, type TestCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

/** LETTER_SAMPLES=write: the complete invoice's first page goes to docs/letters/ (docs/letters/README.md). */
const SAMPLES = join(import.meta.dirname, '../../docs/letters');

describe('push: the invoice PDF the service renders', () => {
  let company: TestCompany;
  let auth: string;
  const shipping = shippingTestConfig();
  const t = useTestApp(quickPush({}, shipping));

  beforeEach(async () => {
    company = await registerCompany(t.app, 'Muster Handel GmbH');
    auth = apiKeyAuth(company.apiKey);
    await shippingApi(t.app, company)
      .patch('/api/v1/shipping_settings', {
        sender_street: 'Hauptstraße 5',
        sender_zip: '10115',
        sender_city: 'Berlin',
        bank_iban: 'DE89 3704 0044 0532 0130 00',
        bank_bic: 'COBADEFFXXX',
        ...LEGAL_DETAILS,
        vat_id: 'DE 123 456 789',
      })
      .expect(200);
  });

  const processed = async (body: object) => waitForStatus(t.app, auth, await pushAccepted(t.app, auth, body), ['processed']);
  /** The stored invoice PDF. */
  const pdfOf = async (invoiceId: string): Promise<Buffer> => {
    const res = await t.http
      .get(`/api/v1/invoices/${invoiceId}/pdf`)
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
  /** The stored invoice PDF's only page, line by line. */
  const pageOf = async (invoiceId: string): Promise<string> => {
    const pages = await pdfPages(await pdfOf(invoiceId));
    expect(pages).toHaveLength(1);
    return pages[0].join('\n');
  };

  // 100.00 at 19 % (19.00 VAT) and 2 × 25.00 at 7 % (3.50 VAT): net 150.00, gross 172.50.
  const supplied = {
    amount: '172.50',
    net: '150.00',
    vat19: '19.00',
    vat7: '3.50',
    delivery_date: '28.10.2026',
    line_items: [
      {
        description: 'Beratung Forderungsmanagement',
        quantity: '1',
        unit: 'Std.',
        unit_price: '100.00',
        net_amount: '100.00',
        vat_rate: 19,
      },
      { description: 'Fachbuch „Mahnwesen“', quantity: 2, unit: 'Stk.', unit_price: '25,00', net_amount: '50.00', vat_rate: 7 },
    ],
  };

  it('(a) line items, delivery date, the company’s address and VAT ID: a complete invoice with net and VAT per rate', async () => {
    const doc = await processed(invoiceDocument('RE-1', 'K-1', supplied));
    const page = await pageOf(doc.result!.id);
    for (const line of [
      'Muster Handel GmbH · Hauptstraße 5 · 10115 Berlin', // seller (§ 14 (4) Nr. 1)
      'Kunde K-1 GmbH', // buyer
      'Weg K-1',
      '10115 Berlin',
      'Rechnungsnummer R-RE-1', // Nr. 4
      'Rechnungsdatum 02.11.2026', // Nr. 3
      'Leistungsdatum 28.10.2026', // Nr. 6
      'Fällig am 16.11.2026',
      'USt-IdNr. DE123456789', // Nr. 2
      'Rechnung R-RE-1',
      'Pos. 1: Beratung Forderungsmanagement, 1,00 Std. à 100,00 €', // Nr. 5
      'Pos. 2: Fachbuch „Mahnwesen“, 2,00 Stk. à 25,00 €',
      'Pos. 1 (USt. 19 %) 100,00 €',
      'Pos. 2 (USt. 7 %) 50,00 €',
      'Nettobetrag zu 19 % 100,00 €', // Nr. 7, 8
      'zzgl. USt. 19 % auf 100,00 € 19,00 €',
      'Nettobetrag zu 7 % 50,00 €',
      'zzgl. USt. 7 % auf 50,00 € 3,50 €',
      'Rechnungsbetrag 172,50 €',
      'IBAN DE89 3704 0044 0532 0130 00',
    ]) {
      expect(page).toContain(line);
    }
    expect(page).not.toContain('Zahlungsaufforderung');
    // The legal details stand in the footer, below the body (§ 35a GmbHG; the VAT ID there too).
    const [rendered] = renderPdf(await pdfOf(doc.result!.id));
    for (const text of ['Sitz: Berlin', 'Geschäftsführer: Erika Mustermann', 'USt-IdNr. DE123456789']) {
      expect({ text, inFooter: (findLine(rendered, text)?.y ?? 0) > DIN5008.footerTop - 3.5 }).toEqual({ text, inFooter: true });
    }
    if (process.env.LETTER_SAMPLES === 'write') await writeFile(join(SAMPLES, 'invoice-complete.png'), rendered.png);

    // A version that changes none of it (the time for payment the invoice has) keeps the stored lines and PDF.
    const again = await processed(invoiceDocument('RE-1', 'K-1', { ...supplied, time_for_payment: 14 }));
    expect(again.outcome).toBe('unchanged');
  });

  it('(c) without line items: a payment request naming the original invoice, without VAT and without an invoice title', async () => {
    const doc = await processed(invoiceDocument('RE-2', 'K-2', { amount: '119.00', net: '100.00', vat19: '19.00' }));
    const page = await pageOf(doc.result!.id);
    for (const line of [
      'Zahlungsaufforderung / Rechnungskopie zur Rechnung Nr. R-RE-2',
      'Rechnungsnummer R-RE-2',
      'Rechnungsdatum 02.11.2026',
      'Rechnung Nr. R-RE-2 vom 02.11.2026 119,00 €',
      'Zu zahlender Betrag 119,00 €',
    ]) {
      expect(page).toContain(line);
    }
    const text = page.replace(/\n/g, ' ');
    expect(text).toContain('Dieses Schreiben ersetzt die Rechnung nicht. Maßgeblich ist unsere Rechnung Nr. R-RE-2 vom 02.11.2026');
    // No VAT amount, no net amount, no date of supply: nothing an invoice shows (the footer names the VAT ID).
    expect(text).not.toMatch(/USt\. |Nettobetrag|Leistungsdatum|Leistungszeitraum/);
    expect(page.split('\n')).not.toContain('Rechnung R-RE-2');
  });

  it('(c) with line items but no VAT ID or tax number in the settings: a payment request; (a) once the draft’s company has one', async () => {
    await shippingApi(t.app, company).patch('/api/v1/shipping_settings', { vat_id: null }).expect(200);
    const doc = await processed(invoiceDocument('RE-3', 'K-3', supplied));
    const id = doc.result!.id;
    expect(await pageOf(id)).toContain('Zahlungsaufforderung / Rechnungskopie zur Rechnung Nr. R-RE-3');

    // The draft's next version (a changed delivery date) renders it again, now with the tax number.
    await shippingApi(t.app, company).patch('/api/v1/shipping_settings', { tax_number: '12/345/67890' }).expect(200);
    await processed(invoiceDocument('RE-3', 'K-3', { ...supplied, delivery_date: '2026-10-01', delivery_end_date: '2026-10-31' }));
    const page = await pageOf(id);
    expect(page).toContain('Steuernummer 12/345/67890');
    expect(page).toContain('Leistungszeitraum 01.10.2026 – 31.10.2026');
    expect(page).toContain('Rechnungsbetrag 172,50 €');
  });

  it('post with cover pages on: the rendered payment request is the letter itself, without a cover page titled as an invoice', async () => {
    await shippingApi(t.app, company).patch('/api/v1/shipping_settings', { cover_page: 'true' }).expect(200);
    const doc = await processed(invoiceDocument('RE-5', 'K-5', { shipping_mode: 'post', options: { autosend: true } }));
    const api = shippingApi(t.app, company);
    await waitFor(async () => (await api.invoiceStatus(doc.result!.id)) === 'sent', 'the invoice to be shipped', 30_000);
    await t.app.get<PostalProvider, PrintBatchProvider>(PostalProvider).flush();
    const root = join(shipping.shipping.printBatchDir, parsePublicId('cmp', company.id) as string);
    const [day] = await readdir(root);
    const pages = await pdfPages(await readFile(join(root, day, 'batch.pdf')));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Zahlungsaufforderung / Rechnungskopie zur Rechnung Nr. R-RE-5');
    expect(pages[0]).not.toContain('Rechnung R-RE-5');
  });

  it('refuses line items that do not add up to the amounts (422), and a delivery period that ends before it starts', async () => {
    const wrongNet = await pushDocument(
      t.app,
      auth,
      invoiceDocument('RE-4', 'K-4', { ...supplied, net: '140.00', amount: '162.50' }),
    ).expect(422);
    expect(wrongNet.body.errors).toEqual(
      expect.arrayContaining([{ field: 'line_items', message: "the line items' net amounts add up to 150.00, not to net 140.00" }]),
    );
    const wrongVat = await pushDocument(
      t.app,
      auth,
      invoiceDocument('RE-4', 'K-4', { ...supplied, vat7: '7.00', amount: '176.00' }),
    ).expect(422);
    expect(wrongVat.body.errors).toEqual([expect.objectContaining({ field: 'vat7' })]);
    const wrongTotal = await pushDocument(t.app, auth, invoiceDocument('RE-4', 'K-4', { ...supplied, amount: '170.00' })).expect(422);
    expect(wrongTotal.body.errors).toEqual([expect.objectContaining({ field: 'net' })]);
    const noNet = await pushDocument(t.app, auth, invoiceDocument('RE-4', 'K-4', { ...supplied, net: undefined })).expect(422);
    expect(noNet.body.errors).toEqual([{ field: 'net', message: 'net is required with line_items' }]);
    const badPeriod = await pushDocument(
      t.app,
      auth,
      invoiceDocument('RE-4', 'K-4', { ...supplied, delivery_date: '2026-10-31', delivery_end_date: '2026-10-01' }),
    ).expect(422);
    expect(badPeriod.body.errors).toEqual([expect.objectContaining({ field: 'delivery_end_date' })]);
    const badRate = await pushDocument(
      t.app,
      auth,
      invoiceDocument('RE-4', 'K-4', { ...supplied, line_items: [{ ...supplied.line_items[0], vat_rate: 16 }] }),
    ).expect(422);
    expect(JSON.stringify(badRate.body.errors)).toContain('line_items[0][vat_rate] must be one of 19, 7');
  });
});
