// PDFs with active content (JavaScript, /Launch, embedded files): recorded at upload and at push
// (pdf_active_content), served as sandboxed attachments, and refused with 422 document.active_content
// — nothing stored — when the company's shipping setting refuse_active_pdf says so.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { makeActivePdf } from '../support/active-pdf.js';
import { expectProblem } from '../support/factories.js';
import {
  type InvoiceApi,
  invoiceApi,
  invoiceRow,
  invoiceSuiteConfig,
  leftoverUploads,
  nestedCustomer,
  storedFiles,
  tableCounts,
} from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { apiKeyAuth, customerFields, invoiceDocument, pushAccepted, pushDocument, startPushApp, waitForStatus } from '../support/push.js';
import { shippingApi } from '../support/shipping.js';
import { dataSource, registerCompany, resetDatabase, type TestCompany } from '../support/test-app.js';

const config = invoiceSuiteConfig('active-pdf');

describe('PDFs with active content', () => {
  let app: INestApplication;
  let company: TestCompany;
  let api: InvoiceApi;
  let plain: Buffer;
  let scripted: Buffer;
  let attached: Buffer;

  beforeAll(async () => {
    app = await startPushApp({}, config);
    plain = await makePdf('Rechnung');
    scripted = await makeActivePdf('open-action-js');
    attached = await makeActivePdf('attached-file');
  });
  afterAll(async () => app.close());
  beforeEach(async () => {
    await resetDatabase(app);
    company = await registerCompany(app, 'Aktiv GmbH');
    api = invoiceApi(app, company);
  });

  const settings = () => shippingApi(app, company);
  const refuseActivePdf = async (refuse: boolean) => {
    const res = await settings().patch('/api/v1/shipping_settings', { refuse_active_pdf: refuse }).expect(200);
    expect(res.body.shipping_settings.refuse_active_pdf).toBe(refuse);
  };
  const pushDocuments = async () => (await dataSource(app).query('SELECT count(*)::int AS n FROM push_documents'))[0].n as number;
  const auth = () => apiKeyAuth(company.apiKey);

  it('flags an uploaded PDF or attachment with active content, and serves it as a sandboxed attachment', async () => {
    const clean = await api.createOk({ ...nestedCustomer(), total: '10' }, { invoice: plain, invoice_attachment: plain });
    expect(clean.pdf_active_content).toBe(false);
    expect(await invoiceRow(app, clean.id)).toMatchObject({ pdf_active_content: false, attachment_active_content: false });

    const active = await api.createOk({ ...nestedCustomer(), total: '10', invoice_number: 'RE-JS' }, { invoice: scripted });
    expect(active.pdf_active_content).toBe(true);
    expect(await invoiceRow(app, active.id)).toMatchObject({ pdf_active_content: true, attachment_active_content: false });
    expect((await api.invoice(active.id).expect(200)).body.invoice.pdf_active_content).toBe(true);

    const withAttachment = await api.createOk(
      { ...nestedCustomer(), total: '10', invoice_number: 'RE-ATT' },
      { invoice: plain, invoice_attachment: attached },
    );
    expect(withAttachment.pdf_active_content).toBe(true);
    expect(await invoiceRow(app, withAttachment.id)).toMatchObject({ pdf_active_content: false, attachment_active_content: true });

    const download = await api.pdf(active.id).expect(200);
    expect(download.headers['content-disposition']).toBe('attachment; filename="RE-JS.pdf"');
    expect(download.headers['content-security-policy']).toBe('sandbox');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(download.body, scripted)).toBe(0);
    const attachment = await api.attachment(withAttachment.id).expect(200);
    expect(attachment.headers['content-disposition']).toMatch(/^attachment; /);
    expect(attachment.headers['content-security-policy']).toBe('sandbox');
    expect(attachment.headers['x-content-type-options']).toBe('nosniff');
    const inline = await api.get(`/api/v1/invoices/${active.id}/pdf?inline=true`).expect(200);
    expect(inline.headers['content-disposition']).toBe('inline; filename="RE-JS.pdf"');
    expect(inline.headers['content-security-policy']).toBe('sandbox');
  });

  it('refuses uploads with active content under refuse_active_pdf, naming the field and the reason, and stores nothing', async () => {
    expect((await settings().get('/api/v1/shipping_settings').expect(200)).body.shipping_settings.refuse_active_pdf).toBe(false);
    await refuseActivePdf(true);

    const refused = await api.create({ ...nestedCustomer(), total: '10' }, { invoice: scripted });
    expectProblem(refused, 422);
    expect(refused.body.code).toBe('document.active_content');
    expect(refused.body.errors).toEqual([{ field: 'invoice', message: expect.stringContaining('contains JavaScript (/OpenAction)') }]);

    const viaAttachment = await api.create({ ...nestedCustomer(), total: '10' }, { invoice: plain, invoice_attachment: attached });
    expectProblem(viaAttachment, 422);
    expect(viaAttachment.body.errors).toEqual([
      { field: 'invoice_attachment', message: expect.stringContaining('contains embedded files (/Names /EmbeddedFiles)') },
    ]);

    expect(await storedFiles(company)).toEqual([]);
    expect(await leftoverUploads(config)).toEqual([]);
    expect(await tableCounts(app)).toMatchObject({ invoices: 0, customers: 0, contacts: 0 });
    expect(await dataSource(app).query('SELECT id FROM pending_documents')).toEqual([]);

    // A PDF without active content passes; the setting can be turned off again.
    expect((await api.createOk({ ...nestedCustomer(), total: '10' }, { invoice: plain })).pdf_active_content).toBe(false);
    await refuseActivePdf(false);
    expect((await api.createOk({ ...nestedCustomer(), total: '10' }, { invoice: scripted })).pdf_active_content).toBe(true);
  });

  it('flags a pushed PDF with active content, on create and when it replaces a draft’s PDF', async () => {
    const first = await waitForStatus(
      app,
      auth(),
      await pushAccepted(app, auth(), invoiceDocument('RE-P1', 'K-1', { pdf: plain.toString('base64') })),
      ['processed'],
    );
    const id = first.result!.id;
    expect((await api.invoice(id).expect(200)).body.invoice.pdf_active_content).toBe(false);

    const replaced = await pushAccepted(app, auth(), invoiceDocument('RE-P1', 'K-1', { pdf: scripted.toString('base64') }));
    await waitForStatus(app, auth(), replaced, ['processed']);
    expect((await api.invoice(id).expect(200)).body.invoice.pdf_active_content).toBe(true);
    expect(await invoiceRow(app, id)).toMatchObject({ pdf_active_content: true });

    const launch = await makeActivePdf('launch-link');
    const other = await waitForStatus(
      app,
      auth(),
      await pushAccepted(app, auth(), invoiceDocument('RE-P2', 'K-1', { pdf: launch.toString('base64') })),
      ['processed'],
    );
    expect((await api.invoice(other.result!.id).expect(200)).body.invoice.pdf_active_content).toBe(true);
  });

  it('refuses a pushed PDF with active content under refuse_active_pdf: 422 at intake, dead-lettered when processing finds it', async () => {
    // Pushed while the company still accepts it, waiting for its customer (retried with backoff).
    const waiting = await pushAccepted(
      app,
      auth(),
      invoiceDocument('RE-W', 'K-9', { pdf: scripted.toString('base64'), customer: undefined }),
    );
    await waitForStatus(app, auth(), waiting, ['failed']);
    await refuseActivePdf(true);

    const refused = await pushDocument(app, auth(), invoiceDocument('RE-R', 'K-1', { pdf: attached.toString('base64') }));
    expectProblem(refused, 422);
    expect(refused.body.code).toBe('document.active_content');
    expect(refused.body.errors).toEqual([
      { field: 'pdf', message: expect.stringContaining('contains embedded files (/Names /EmbeddedFiles)') },
    ]);
    expect(await pushDocuments()).toBe(1);

    await pushAccepted(app, auth(), { document_type: 'customer', external_id: 'K-9', ...customerFields(9) });
    const dead = await waitForStatus(app, auth(), waiting, ['dead_lettered'], 60_000);
    expect(dead.last_error).toMatch(/^document\.active_content: .*pdf: pdf contains JavaScript \(\/OpenAction\)/);
    expect((await tableCounts(app)).invoices).toBe(0);
    expect(await storedFiles(company)).toEqual([]);

    // A PDF without active content still goes through.
    const fine = await waitForStatus(
      app,
      auth(),
      await pushAccepted(app, auth(), invoiceDocument('RE-F', 'K-9', { pdf: plain.toString('base64') })),
      ['processed'],
    );
    expect(
      (await request(app.getHttpServer()).get(`/api/v1/invoices/${fine.result!.id}`).set('Authorization', company.auth).expect(200)).body
        .invoice.pdf_active_content,
    ).toBe(false);
  });
});
