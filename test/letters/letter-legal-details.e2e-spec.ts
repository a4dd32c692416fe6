// Every kind of letter the service produces, as a reader sees it: rendered to PNG with its text lines
// positioned in mm (MuPDF). The company's legal details (§ 35a GmbHG, § 37a HGB, § 80 AktG, § 125a HGB)
// stand in the footer zone below the body on every page the service renders, the address in the
// envelope window. `LETTER_SAMPLES=write` also writes the first page of each kind to docs/letters/.
// A new kind is one line in KINDS.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePublicId } from '../../src/common/ids.js';
import { DIN5008 } from '../../src/letters/din5008.js';
import { DunningHarness, type Json, LEGAL_DETAILS } from '../support/dunning.js';
import { withoutRateLimits } from '../support/factories.js';
import { linesBetween, renderPdf, type RenderedPage } from '../support/pdf-render.js';
import { shippingTestConfig } from '../support/shipping.js';
import { startTestSmtp, type TestSmtp } from '../support/smtp.js';
import { useTestApp } from '../support/use-test-app.js';

const SAMPLES = join(import.meta.dirname, '../../docs/letters');
const writeSamples = process.env.LETTER_SAMPLES === 'write';

/** What the footer must show, line by line, for the company of this suite (a GmbH). */
const LEGAL_LINES = [
  'Muster Handel GmbH',
  'Sitz: Berlin',
  'Registergericht: Amtsgericht Charlottenburg, HRB 12345',
  'Geschäftsführer: Erika Mustermann, Max Mustermann',
  'USt-IdNr. DE123456789 · Steuernr. 27/123/45678',
];
const ADDRESS = ['Kunde AG', 'Hauptstr. 1', '10115 Berlin'];
/** A level-3 text long enough for a second page. */
const LONG_TEXT = [
  'trotz unserer Zahlungserinnerung und unserer Mahnung ist der unten genannte Betrag noch offen.',
  ...Array.from({ length: 26 }, (_, i) => `Lieferung vom 02.01.2026, Lieferschein 4711-${i + 1}`),
  'Begleichen Sie den offenen Betrag bitte bis zu der unten genannten Frist. Danach übergeben wir die Forderung ohne weitere Ankündigung einem Inkassounternehmen.',
].join('\n');

describe('letters: the legal details in the footer of every kind, the address in the window', () => {
  let smtp: TestSmtp;
  let d: DunningHarness;
  let config: ReturnType<typeof shippingTestConfig>;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    config = shippingTestConfig(smtp.url);
  });
  const t = useTestApp(() => ({ ...withoutRateLimits(), ...config }), { reset: 'manual' });
  afterAll(async () => smtp.close());

  let invoiceId: string;
  let renderedId: string;
  const letter = async (path: string) => renderPdf((await d.api().get(path).expect(200)).body as Buffer);
  const reminderPath = async (stage: number) =>
    `/api/v1/invoices/${invoiceId}/reminders/${(await d.invoice(invoiceId)).reminders[stage - 1].id}/letter`;

  /** Each kind: its sample name and its pages the service rendered itself (a client's own PDF is not checked). */
  const KINDS: Array<{ name: string; what: string; pages: () => Promise<RenderedPage[]>; noWindow?: true }> = [
    { name: 'reminder-1', what: 'Zahlungserinnerung (reminder 1)', pages: async () => letter(await reminderPath(1)) },
    { name: 'reminder-2', what: 'Mahnung (reminder 2)', pages: async () => letter(await reminderPath(2)) },
    { name: 'reminder-3', what: 'Letzte Mahnung (reminder 3), two pages', pages: async () => letter(await reminderPath(3)) },
    {
      name: 'invoice-cover-page',
      what: 'cover page in front of an invoice the client uploaded (letters by post)',
      pages: async () => (await letter(`/api/v1/invoices/${invoiceId}/letter`)).slice(0, 1),
    },
    {
      name: 'rendered-invoice',
      what: 'payment request rendered by the service for an invoice without a PDF of its own (no line items)',
      pages: () => letter(`/api/v1/invoices/${renderedId}/letter`),
    },
    {
      name: 'statement-of-claim',
      what: 'statement of claim (Forderungsaufstellung) of the invoice handed to debt collection',
      pages: () => letter(`/api/v1/invoices/${invoiceId}/statement_of_claim`),
      // An enclosure for the collection agency or the court, not sent in a window envelope.
      noWindow: true,
    },
  ];

  beforeAll(async () => {
    d = new DunningHarness(t.app);
    await d.reset();
    await d
      .api()
      .patch('/api/v1/shipping_settings')
      .send({
        ...LEGAL_DETAILS,
        managing_directors: ['Erika Mustermann', 'Max Mustermann'],
        tax_number: '27/123/45678',
        sender_street: 'Hauptstraße 5',
        sender_zip: '10115',
        sender_city: 'Berlin',
        sender_phone: '030 123456',
        sender_email: 'buchhaltung@muster-handel.de',
        bank_account_holder: 'Muster Handel GmbH',
        bank_iban: 'DE89 3704 0044 0532 0130 00',
        bank_bic: 'COBADEFFXXX',
        bank_name: 'Commerzbank',
        cover_page: true,
      })
      .expect(200);
    await t.db.query(`UPDATE companies SET name = 'Muster Handel GmbH' WHERE id = $1`, [parsePublicId('cmp', d.company.id)]);
    await d.policy({ levels: [{}, {}, { text: LONG_TEXT }] });
    invoiceId = await d.sentInvoice('2026-01-10', '119.00', { invoice_number: '2026-001' });
    await d.runUntil('2026-01-17', invoiceId, 'reminder1_sent');
    await d.runUntil('2026-01-31', invoiceId, 'reminder2_sent');
    await d.runUntil('2026-02-28', invoiceId, 'reminder3_sent');
    // 14 days (the policy's collection_days) after reminder 3 it is handed to debt collection.
    await d.runUntil('2026-03-14', invoiceId, 'ready_for_dept_collection');
    await d.api().post(`/api/v1/invoices/${invoiceId}/hand_to_collection`).expect(200);
    renderedId = await d.sentInvoice('2026-01-10', '238.00', { invoice_number: '2026-002', net: '200.00', vat19: '38.00' });
    // An invoice the service holds no PDF of (as pulled from the ERP): shipping renders it.
    await t.db.query(`UPDATE invoices SET pdf_key = NULL, pdf_size = NULL, pdf_sha256 = NULL WHERE id = $1`, [
      parsePublicId('inv', renderedId),
    ]);
    if (writeSamples) await mkdir(SAMPLES, { recursive: true });
  });

  it.each(KINDS.map((kind) => [kind.name, kind] as const))('%s', async (_name, kind) => {
    const pages = await kind.pages();
    expect(pages.length).toBeGreaterThan(0);
    if (kind.name === 'reminder-3') expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      expect([Math.round(page.widthMm), Math.round(page.heightMm)]).toEqual([210, 297]);
      const footer = linesBetween(page, DIN5008.footerTop - 3.5, page.heightMm);
      const body = linesBetween(page, 0, DIN5008.footerTop - 3.5);
      const bodyBottom = Math.max(...body.map((line) => line.y + line.h));
      for (const text of LEGAL_LINES) {
        const line = footer.find((l) => l.text.trim() === text);
        expect({ text, found: line !== undefined }).toEqual({ text, found: true });
        // Inside the page's printable area, below every line of the body, in the left footer column.
        expect(line!.y).toBeGreaterThan(bodyBottom);
        expect(line!.y + line!.h).toBeLessThan(page.heightMm - 4);
        expect(line!.x).toBeGreaterThanOrEqual(DIN5008.left - 0.5);
        expect(line!.x + line!.w).toBeLessThan(92);
      }
    }
    // The statement of claim's sample is the worked case of src/letters/statement-of-claim.sample.ts.
    if (writeSamples && !kind.noWindow) await writeFile(join(SAMPLES, `${kind.name}.png`), pages[0].png);
    if (kind.noWindow) return;
    // The window address: in the address field of the first page (20–105 mm, below the 17.7 mm note zone to 90 mm).
    const window = pages[0].lines.filter((line) => line.x >= 20 && line.x < 105 && line.y >= 45 + 17.7 && line.y < 90);
    expect(window.map((line) => line.text.trim())).toEqual(expect.arrayContaining(ADDRESS));
    for (const line of window.filter((l) => ADDRESS.includes(l.text.trim()))) expect(line.x + line.w).toBeLessThan(105);
  });

  it('every reminder e-mail carries the legal details and bank below the signature separator', () => {
    expect(smtp.received).toHaveLength(3);
    for (const mail of smtp.received) {
      const text = mail.parsed.text ?? '';
      const signature = text.slice(text.lastIndexOf('\n-- \n'));
      expect(signature.split('\n').slice(2, -1)).toEqual([
        'Muster Handel GmbH',
        'Hauptstraße 5, 10115 Berlin',
        ...LEGAL_LINES.slice(1),
        'Muster Handel GmbH, IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX, Commerzbank',
      ]);
    }
  });

  it('a company without them: its run records the warnings, its settings answer names what is missing', async () => {
    await d
      .api()
      .patch('/api/v1/shipping_settings')
      .send({ register_court: '', managing_directors: [], vat_id: '', tax_number: '' })
      .expect(200);
    const run: Json = await d.run('2026-03-31');
    expect(run.errors).toEqual([
      'warning: register_court is not set: business letters of a GmbH must show it (§ 35a GmbHG); set it in the shipping settings',
      'warning: managing_directors is not set: business letters of a GmbH must show it (§ 35a GmbHG); set it in the shipping settings',
      'warning: neither vat_id nor tax_number is set: an invoice must show one of them (§ 14 (4) Nr. 2 UStG); set it in the shipping settings',
    ]);
    const settings = (await d.api().get('/api/v1/shipping_settings').expect(200)).body.shipping_settings;
    expect(settings.warnings).toHaveLength(3);
  });
});

export {};
