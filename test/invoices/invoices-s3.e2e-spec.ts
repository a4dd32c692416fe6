// Invoices with the S3 document store (DOCUMENT_STORE=s3) against a real S3 server on 127.0.0.1
// (@20minutes/s3rver: SigV4-checked requests, objects on disk): create, download byte for byte, and
// every failed create leaves no object in the bucket, no row and no announcement behind.
import S3rver from '@20minutes/s3rver';
import { DeleteObjectCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { S3StoreConfig } from '../../src/config/documents.config.js';
import { createS3Client } from '../../src/documents/s3-document-store.js';
import { errorFields, expectProblem } from '../support/factories.js';
import {
  filesUnder,
  type InvoiceApi,
  invoiceApi,
  invoiceRow,
  invoiceSuiteConfig,
  leftoverUploads,
  nestedCustomer,
  sha256,
  tableCounts,
} from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { useTestApp } from '../support/use-test-app.js';

const OBJECT = '._S3rver_object';

describe('invoices on the S3 document store', () => {
  let work: string;
  let server: S3rver;
  let s3: S3Client;
  let config: ReturnType<typeof invoiceSuiteConfig>;
  let api: InvoiceApi;
  let pdf: Buffer;
  let attachment: Buffer;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'invoices-s3-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: join(work, 's3'),
      configureBuckets: [{ name: 'documents' }],
    });
    const { port } = await server.run();
    const store: S3StoreConfig = {
      kind: 's3',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket: 'documents',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    };
    s3 = createS3Client(store);
    config = invoiceSuiteConfig('s3', store);
  });
  const t = useTestApp(() => config, { company: true });
  beforeAll(async () => {
    pdf = await makePdf('Rechnung S3', 300 * 1024);
    attachment = await makePdf('Anlage S3');
  });
  afterAll(async () => {
    s3.destroy();
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(() => {
    api = invoiceApi(t.app, t.company);
  });

  /**
   * The company's objects as the server holds them on disk (s3rver's bucket listing refuses the SDK's
   * signature): `<bucket>/<key>._S3rver_object`.
   */
  const objects = async (): Promise<string[]> => {
    const bucket = join(work, 's3', 'documents');
    const files = await filesUnder(join(bucket, t.company.id.slice(4)));
    return files
      .filter((path) => path.endsWith(OBJECT))
      .map((path) => relative(bucket, path).slice(0, -OBJECT.length))
      .sort();
  };
  const objectBytes = async (key: string): Promise<Buffer> =>
    Buffer.from(await (await s3.send(new GetObjectCommand({ Bucket: 'documents', Key: key }))).Body!.transformToByteArray());

  async function expectNothingLeft(): Promise<void> {
    expect(await objects()).toEqual([]);
    expect(await tableCounts(t.app)).toMatchObject({ invoices: 0, customers: 0, contacts: 0 });
    expect(await t.db.query('SELECT id FROM pending_documents')).toEqual([]);
    expect(await leftoverUploads(config)).toEqual([]);
  }

  it('stores the PDF and the attachment as objects and serves them back byte for byte', async () => {
    const invoice = await api.createOk({ ...nestedCustomer(), total: '10' }, { invoice: pdf, invoice_attachment: attachment });
    const prefix = `${t.company.id.slice(4)}/invoices/${invoice.id.slice(4)}`;
    expect(await objects()).toEqual([`${prefix}/attachment.pdf`, `${prefix}/invoice.pdf`]);
    expect(sha256(await objectBytes(`${prefix}/invoice.pdf`))).toBe(sha256(pdf));
    expect(await invoiceRow(t.app, invoice.id)).toMatchObject({ pdf_key: `${prefix}/invoice.pdf`, pdf_size: String(pdf.length) });
    const download = await api.pdf(invoice.id).expect(200);
    expect(download.headers['content-length']).toBe(String(pdf.length));
    expect(Buffer.compare(download.body, pdf)).toBe(0);
    expect(Buffer.compare((await api.attachment(invoice.id).expect(200)).body, attachment)).toBe(0);
  });

  it('rolls an extended create back that fails after the upload: no object, no customer, no row', async () => {
    const res = await api.create(
      { ...nestedCustomer(), 'contact[name]': 'Ohne Anrede', total: '10' },
      { invoice: pdf, invoice_attachment: attachment },
    );
    expectProblem(res, 422);
    expect(errorFields(res).sort()).toEqual(['contact[gender]', 'contact[salutation]']);
    await expectNothingLeft();
  });

  it('a taken external_id (409) keeps only the first invoice’s objects', async () => {
    const first = await api.createOk({ ...nestedCustomer({ 'customer[external_id]': 'K-1' }), external_id: 'RE-1' }, { invoice: pdf });
    const before = await objects();
    expect(before).toEqual([`${t.company.id.slice(4)}/invoices/${first.id.slice(4)}/invoice.pdf`]);
    expectProblem(
      await api.create(
        { ...nestedCustomer({ 'customer[external_id]': 'K-2' }), external_id: 're-1' },
        { invoice: pdf, invoice_attachment: attachment },
      ),
      409,
    );
    expect(await objects()).toEqual(before);
    expect(await tableCounts(t.app)).toMatchObject({ invoices: 1, customers: 1 });
  });

  it('answers an object the bucket lost with a 404 problem, not a 500', async () => {
    const invoice = await api.createOk({ ...nestedCustomer(), total: '10' }, { invoice: pdf });
    await s3.send(
      new DeleteObjectCommand({ Bucket: 'documents', Key: `${t.company.id.slice(4)}/invoices/${invoice.id.slice(4)}/invoice.pdf` }),
    );
    const res = await api.pdf(invoice.id);
    expectProblem(res, 404);
    expect(res.body.code).toBe('document.not_found');
  });
});
