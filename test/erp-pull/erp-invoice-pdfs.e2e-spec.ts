// The ERP's own invoice PDFs (case (b) of src/shipping/letters/invoice-kind.ts): with fetch_invoice_pdfs a
// pull asks the local SAP stand-in for each new invoice's billing document PDF (API_BILLING_DOCUMENT_SRV
// GetPDF) and keeps it as the invoice's PDF; without the setting (the default) it asks for none.
import { toPublicId } from '../../src/common/ids.js';
import { connectionBody, erpApi, erpTestConfig, runPull, sapItem, sapPartner, CLIENT_ID, CLIENT_SECRET } from '../support/erp.js';
import { makeActivePdf } from '../support/active-pdf.js';
import { makePdf } from '../support/pdf.js';
import { type ErpPki, makeErpPki } from '../support/pki.js';
import { BILLING_PDF_PATH, SapODataServer } from '../support/sap-odata-server.js';
import { useTestApp } from '../support/use-test-app.js';

let pki: ErpPki;
let server: SapODataServer;
const t = useTestApp(erpTestConfig(), { company: true });

beforeAll(() => {
  pki = makeErpPki();
});
beforeEach(async () => {
  server = await new SapODataServer({ pki, version: 'v2', auth: 'oauth', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }).start();
  server.partners = [sapPartner('17100001')];
  server.items = [sapItem(1), sapItem(2), sapItem(3, { BillingDocument: '' })];
});
afterEach(() => server.stop());
afterAll(() => pki.remove());

async function connect(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await erpApi(t.app, t.company).create(connectionBody(server, pki, overrides));
  expect(res.status).toBe(201);
  return res.body.erp_connection.id;
}

/** The pulled invoice of a billing document ('' for the item without one). */
async function invoiceOf(billingDocument: string): Promise<string> {
  const [row] = await t.db.query(`SELECT id FROM invoices WHERE coalesce(additional_number, '') = $1`, [billingDocument]);
  return toPublicId('inv', row.id);
}

async function pdfOf(billingDocument: string): Promise<{ status: number; body: Buffer }> {
  const res = await t.http
    .get(`/api/v1/invoices/${await invoiceOf(billingDocument)}/pdf`)
    .set('Authorization', t.company.auth)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  return { status: res.status, body: res.body as Buffer };
}

const pdfRequests = () => server.odataRequests(BILLING_PDF_PATH).map((r) => decodeURIComponent(new URL(r.url, server.origin).search));

it('fetch_invoice_pdfs: a pull keeps each billing document’s PDF as the invoice’s; one without output is asked for again next time', async () => {
  const original = await makePdf('Rechnung 90000001 aus dem ERP');
  server.billingPdfs.set('90000001', original);
  const connection = await connect({ fetch_invoice_pdfs: true });
  expect((await erpApi(t.app, t.company).get(`/api/v1/erp_connections/${connection}`).expect(200)).body.erp_connection).toMatchObject({
    fetch_invoice_pdfs: true,
  });

  expect((await runPull(t.app, t.company, connection)).status).toBe('succeeded');
  expect(pdfRequests().sort()).toEqual(["?BillingDocument='90000001'", "?BillingDocument='90000002'"]);
  const first = await pdfOf('90000001');
  expect(first.status).toBe(200);
  expect(Buffer.compare(first.body, original)).toBe(0);
  expect((await pdfOf('90000002')).status).toBe(404); // SAP has no output for it (yet)
  expect((await pdfOf('')).status).toBe(404); // no billing document: nothing to ask for

  // The next pull asks only for the invoice still without a PDF, and keeps it once SAP has it.
  const later = await makePdf('Rechnung 90000002 aus dem ERP');
  server.billingPdfs.set('90000002', later);
  server.requests.length = 0;
  expect((await runPull(t.app, t.company, connection)).status).toBe('succeeded');
  expect(pdfRequests()).toEqual(["?BillingDocument='90000002'"]);
  expect(Buffer.compare((await pdfOf('90000002')).body, later)).toBe(0);
  expect(Buffer.compare((await pdfOf('90000001')).body, original)).toBe(0);
});

it('without the setting (the default) a pull asks the ERP for no PDF', async () => {
  server.billingPdfs.set('90000001', await makePdf('Rechnung 90000001 aus dem ERP'));
  const connection = await connect();
  expect((await erpApi(t.app, t.company).get(`/api/v1/erp_connections/${connection}`).expect(200)).body.erp_connection).toMatchObject({
    fetch_invoice_pdfs: false,
  });
  expect((await runPull(t.app, t.company, connection)).status).toBe('succeeded');
  expect(pdfRequests()).toEqual([]);
  expect((await pdfOf('90000001')).status).toBe(404);
});

it('an ERP that fails while PDFs are fetched leaves the run succeeded and the invoices without one', async () => {
  server.billingPdfs.set('90000001', await makePdf('Rechnung 90000001 aus dem ERP'));
  server.billingPdfs.set('90000002', await makePdf('Rechnung 90000002 aus dem ERP'));
  server.faults.push({ kind: 'status', status: 500, match: /GetPDF/, times: 10 });
  const connection = await connect({ fetch_invoice_pdfs: true });
  const run = await runPull(t.app, t.company, connection);
  expect(run.status).toBe('succeeded');
  expect((await pdfOf('90000001')).status).toBe(404);
  expect((await pdfOf('90000002')).status).toBe(404);
});

it('keeps no answer that is not a PDF, nor a PDF with active content: those invoices stay without one', async () => {
  server.billingPdfs.set('90000001', await makeActivePdf('open-action-js'));
  server.billingPdfs.set('90000002', Buffer.from('<html>Anmeldung erforderlich</html>'));
  const connection = await connect({ fetch_invoice_pdfs: true });
  expect((await runPull(t.app, t.company, connection)).status).toBe('succeeded');
  expect(pdfRequests()).toHaveLength(2);
  expect((await pdfOf('90000001')).status).toBe(404);
  expect((await pdfOf('90000002')).status).toBe(404);
});
