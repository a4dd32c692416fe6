// The invoice PDF and its attachment: only real PDFs up to MAX_UPLOAD_MB are accepted (415 / 413
// otherwise), a refused or failed create leaves no file in the document store, no temp upload and no
// row, and what was stored is served back byte for byte.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createCustomer, errorFields, expectProblem } from '../support/factories.js';
import {
  type Fields,
  type InvoiceApi,
  type InvoiceFiles,
  invoiceApi,
  invoiceRow,
  invoiceSuiteConfig,
  leftoverUploads,
  nestedContact,
  nestedCustomer,
  sha256,
  storedFile,
  storedFiles,
  tableCounts,
} from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { DocumentStore } from '../../src/documents/document-store.js';
import { PendingDocumentsRepository } from '../../src/documents/pending-documents.repository.js';
import { DOCUMENT_SWEEP_QUEUE } from '../../src/documents/pending-documents.sweeper.js';
import { JobQueue } from '../../src/jobs/job-queue.js';
import { PUBLIC_URL, TEST_DATA_DIR } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const LIMIT_MB = 0.05;
const LIMIT_BYTES = Math.floor(LIMIT_MB * 1024 * 1024);
const config = invoiceSuiteConfig('documents', { maxUploadMb: LIMIT_MB });

/** A real PDF of exactly `size` bytes: padded inside, then trailing whitespace after %%EOF. */
async function pdfOfSize(size: number): Promise<Buffer> {
  const pdf = await makePdf('Genau', size - 2500);
  if (pdf.length > size) throw new Error(`padding overshot: ${pdf.length} > ${size}`);
  return Buffer.concat([pdf, Buffer.alloc(size - pdf.length, 0x0a)]);
}

describe('invoice documents', () => {
  let api: InvoiceApi;
  let pdf: Buffer;
  let attachment: Buffer;

  const t = useTestApp(config, { company: true });
  beforeAll(async () => {
    pdf = await makePdf('Rechnung 2026-042');
    attachment = await makePdf('Leistungsnachweis');
  });
  beforeEach(() => {
    api = invoiceApi(t.app, t.company);
  });

  const pendingRows = async () => t.db.query('SELECT id, keys FROM pending_documents');

  /** Nothing of the request is left: no document, no temp upload, no invoice, customer or contact. */
  async function expectNothingStored(): Promise<void> {
    expect(await storedFiles(t.company)).toEqual([]);
    expect(await pendingRows()).toEqual([]);
    expect(await leftoverUploads(config)).toEqual([]);
    expect(await tableCounts(t.app)).toMatchObject({ invoices: 0, customers: 0, contacts: 0 });
  }

  it('stores the PDF and the attachment with size and SHA-256, and serves both back byte for byte', async () => {
    const res = await api.create(
      { ...nestedCustomer(), invoice_number: 'RE/2026 042', total: '10' },
      { invoice: pdf, invoice_attachment: attachment },
    );
    expect(res.status).toBe(201);
    const invoice = res.body.invoice;
    const folder = `invoices/${invoice.id.slice(4)}`;
    expect(await storedFiles(t.company)).toEqual([`${folder}/attachment.pdf`, `${folder}/invoice.pdf`]);
    expect(Buffer.compare(await storedFile(t.company, `${folder}/invoice.pdf`), pdf)).toBe(0);
    expect(Buffer.compare(await storedFile(t.company, `${folder}/attachment.pdf`), attachment)).toBe(0);
    const row = await invoiceRow(t.app, invoice.id);
    expect(row).toMatchObject({
      pdf_key: `${t.company.id.slice(4)}/${folder}/invoice.pdf`,
      pdf_size: String(pdf.length),
      attachment_size: String(attachment.length),
    });
    expect(row.pdf_sha256!.toString('hex')).toBe(sha256(pdf));
    expect(row.attachment_sha256!.toString('hex')).toBe(sha256(attachment));

    const download = await api.pdf(invoice.id).expect(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-length']).toBe(String(pdf.length));
    // Downloaded, sandboxed and never sniffed: an uploaded PDF may carry active content.
    expect(download.headers['content-disposition']).toBe('attachment; filename="RE_2026_042.pdf"');
    expect(download.headers['content-security-policy']).toBe('sandbox');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(download.body, pdf)).toBe(0);
    const viewed = await api.get(`/api/v1/invoices/${invoice.id}/pdf?inline=true`).expect(200);
    expect(viewed.headers['content-disposition']).toBe('inline; filename="RE_2026_042.pdf"');
    expect(viewed.headers['content-security-policy']).toBe('sandbox');

    // invoice_attachment is the URL of the attachment, and that URL serves the attachment's bytes.
    expect(invoice.invoice_attachment).toBe(`${PUBLIC_URL}/api/v1/invoices/${invoice.id}/attachment`);
    const viaUrl = await api.get(invoice.invoice_attachment.slice(PUBLIC_URL.length)).expect(200);
    expect(viaUrl.headers['content-type']).toBe('application/pdf');
    expect(viaUrl.headers['content-disposition']).toBe('attachment; filename="RE_2026_042-attachment.pdf"');
    expect(Buffer.compare(viaUrl.body, attachment)).toBe(0);
    expect(await leftoverUploads(config)).toEqual([]);
  });

  it('answers /attachment with a 404 problem when the invoice has none', async () => {
    const customer = await createCustomer(t.app, t.company);
    const invoice = await api.createOk({ customer_id: customer.id });
    expect(invoice.invoice_attachment).toBeNull();
    expectProblem(await api.attachment(invoice.id), 404);
    expect(await storedFiles(t.company)).toEqual([`invoices/${invoice.id.slice(4)}/invoice.pdf`]);
  });

  it('answers a PDF the store lost with a 404 problem naming it, not a 500', async () => {
    const invoice = await api.createOk({ ...nestedCustomer(), total: '10' }, { invoice: pdf, invoice_attachment: attachment });
    const folder = join(TEST_DATA_DIR, 'documents', t.company.id.slice(4), 'invoices', invoice.id.slice(4));
    await rm(join(folder, 'invoice.pdf'));
    const res = await api.pdf(invoice.id);
    expectProblem(res, 404);
    expect(res.body).toMatchObject({ code: 'document.not_found' });
    expect(res.body.detail).toContain(invoice.id);
    await api.attachment(invoice.id).expect(200);
  });

  it('accepts a file of exactly MAX_UPLOAD_MB and refuses one byte more with 413', async () => {
    const exact = await pdfOfSize(LIMIT_BYTES);
    const created = await api.create({ ...nestedCustomer(), total: '1' }, { invoice: exact });
    expect(created.status).toBe(201);
    expect((await api.pdf(created.body.invoice.id).expect(200)).body.length).toBe(LIMIT_BYTES);
    await t.reset();
    api = invoiceApi(t.app, t.company);
    const over = await api.create({ ...nestedCustomer(), total: '1' }, { invoice: await pdfOfSize(LIMIT_BYTES + 1) });
    expectProblem(over, 413);
    expect(errorFields(over)).toEqual(['invoice']);
    await expectNothingStored();
  });

  describe('refusals store nothing', () => {
    const cases: Array<[string, number, string, () => InvoiceFiles | Promise<InvoiceFiles>]> = [
      ['an invoice that is plain text', 415, 'invoice', () => ({ invoice: Buffer.from('Rechnung 42: 119,00 EUR\n'.repeat(100)) })],
      [
        'an invoice with a PDF header but no PDF inside',
        415,
        'invoice',
        () => ({ invoice: Buffer.from(`%PDF-1.7\n${'kaputt '.repeat(500)}`) }),
      ],
      ['an empty invoice file', 415, 'invoice', () => ({ invoice: Buffer.alloc(0) })],
      [
        'a PNG sent as invoice',
        415,
        'invoice',
        () => ({ invoice: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2000, 1)]) }),
      ],
      ['an invoice over MAX_UPLOAD_MB', 413, 'invoice', async () => ({ invoice: await makePdf('Groß', 200_000) })],
      [
        'an attachment that is not a PDF',
        415,
        'invoice_attachment',
        () => ({ invoice: pdf, invoice_attachment: Buffer.from('<html>Anlage</html>'.repeat(100)) }),
      ],
      [
        'an attachment with a PDF header but no PDF inside',
        415,
        'invoice_attachment',
        () => ({ invoice: pdf, invoice_attachment: Buffer.from(`%PDF-1.4\n${'x'.repeat(3000)}`) }),
      ],
      [
        'an attachment over MAX_UPLOAD_MB',
        413,
        'invoice_attachment',
        async () => ({ invoice: pdf, invoice_attachment: await makePdf('Groß', 120_000) }),
      ],
      ['an attachment without the invoice', 422, 'invoice', () => ({ invoice: null, invoice_attachment: attachment })],
    ];

    it.each(cases)('%s: %d naming %s', async (_name, status, field, files) => {
      const fields: Fields = {
        ...nestedCustomer({ 'customer[external_id]': 'K-NEU' }),
        ...nestedContact(),
        external_id: 'RE-1',
        total: '10',
      };
      const res = await api.create(fields, await files());
      expectProblem(res, status);
      expect(errorFields(res)).toEqual([field]);
      await expectNothingStored();
      // Nothing was reserved either: the same request with good files goes through.
      const retry = await api.create(fields, { invoice: pdf });
      expect(retry.status).toBe(201);
    });

    it('a non-PDF sent before the text fields is refused the same way', async () => {
      const res = await t.http
        .post('/api/v1/invoices')
        .set('Authorization', t.company.auth)
        .attach('invoice', Buffer.from('GIF89a not a pdf'), 'bild.gif')
        .field('customer[name]', 'Neu AG')
        .field('total', '10');
      expectProblem(res, 415);
      await expectNothingStored();
    });
  });

  describe('failures after the files were stored remove them again', () => {
    it('an unknown customer (422)', async () => {
      const res = await api.create(
        { customer_id: 'cus-00000000-0000-4000-8000-000000000000', total: '10' },
        { invoice: pdf, invoice_attachment: attachment },
      );
      expectProblem(res, 422);
      expect(errorFields(res)).toEqual(['customer_id']);
      await expectNothingStored();
    });

    it('a nested contact without its required fields (422): the new customer and the files are gone', async () => {
      const res = await api.create(
        { ...nestedCustomer(), 'contact[name]': 'Ohne Anrede', total: '10' },
        { invoice: pdf, invoice_attachment: attachment },
      );
      expectProblem(res, 422);
      expect(errorFields(res).sort()).toEqual(['contact[gender]', 'contact[salutation]']);
      await expectNothingStored();
    });

    it('an autoskip import without a total (422)', async () => {
      const res = await api.create(
        { ...nestedCustomer(), 'options[autoskip_shipping]': 'true' },
        { invoice: pdf, invoice_attachment: attachment },
      );
      expectProblem(res, 422);
      expect(errorFields(res)).toEqual(['total']);
      await expectNothingStored();
    });

    it('a taken external_id (409): only the first invoice’s files remain', async () => {
      const first = await api.createOk({ ...nestedCustomer({ 'customer[external_id]': 'K-1' }), external_id: 'RE-1' }, { invoice: pdf });
      const before = await storedFiles(t.company);
      expect(before).toEqual([`invoices/${first.id.slice(4)}/invoice.pdf`]);
      const res = await api.create(
        { ...nestedCustomer({ 'customer[external_id]': 'K-2' }), external_id: 're-1' },
        { invoice: pdf, invoice_attachment: attachment },
      );
      expectProblem(res, 409);
      expect(await storedFiles(t.company)).toEqual(before);
      expect(Buffer.compare(await storedFile(t.company, before[0]), pdf)).toBe(0);
      expect(await leftoverUploads(config)).toEqual([]);
      expect(await tableCounts(t.app)).toMatchObject({ invoices: 1, customers: 1 });
    });
  });

  describe('a crash between storing the files and committing', () => {
    it('leaves files that are announced as pending; the hourly sweep deletes them after the grace period, and nothing else', async () => {
      // Both ways of creating (one transaction; one statement) settle their announcement with the commit.
      const kept = await api.createOk({ ...nestedCustomer(), total: '10' }, { invoice: pdf, invoice_attachment: attachment });
      const single = await api.createOk({ customer_id: (await createCustomer(t.app, t.company)).id, total: '10' }, { invoice: pdf });
      expect(await pendingRows()).toEqual([]);
      // What a create leaves when its process dies after storing its files: the announcement and the files.
      const store = t.app.get(DocumentStore);
      const pending = t.app.get(PendingDocumentsRepository);
      const crashed = (name: string) => [
        `${t.company.id.slice(4)}/invoices/${name}/invoice.pdf`,
        `${t.company.id.slice(4)}/invoices/${name}/attachment.pdf`,
      ];
      const [oldId, youngId] = ['6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e51', '6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e52'];
      for (const id of [oldId, youngId]) {
        await pending.announce(t.company.id.slice(4), id, crashed(id));
        for (const key of crashed(id)) await store.putBuffer(key, pdf, 'application/pdf');
      }
      await t.db.query(`UPDATE pending_documents SET created_at = now() - interval '25 hours' WHERE id = $1`, [oldId]);
      const schedules = await t.db.query(`SELECT cron FROM pgboss.schedule WHERE name = $1`, [DOCUMENT_SWEEP_QUEUE]);
      expect(schedules).toEqual([{ cron: '23 * * * *' }]);

      await t.app.get(JobQueue).send(DOCUMENT_SWEEP_QUEUE, {});
      const deadline = Date.now() + 20_000;
      while ((await pendingRows()).length > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));

      expect((await pendingRows()).map((row: { id: string }) => row.id)).toEqual([youngId]);
      const folder = (id: string) => `invoices/${id}`;
      expect(await storedFiles(t.company)).toEqual(
        [
          `${folder(kept.id.slice(4))}/attachment.pdf`,
          `${folder(kept.id.slice(4))}/invoice.pdf`,
          `${folder(single.id.slice(4))}/invoice.pdf`,
          `${folder(youngId)}/attachment.pdf`,
          `${folder(youngId)}/invoice.pdf`,
        ].sort(),
      );
      await api.pdf(kept.id).expect(200);
    }, 30_000);
  });
});
