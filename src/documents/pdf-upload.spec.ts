// PdfUploadInterceptor through a tiny Nest app over HTTP: real PDFs pass and reach the store; fake,
// broken, oversized and unexpected files get their problem status, and no temp or stored file remains.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, HttpCode, type INestApplication, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import request from 'supertest';
import { AppError } from '../common/errors.js';
import { ProblemFilter } from '../http/problem.filter.js';
import type { DocumentsConfig, LocalStoreConfig } from '../config/documents.config.js';
import { DocumentStore } from './document-store.js';
import { DocumentsModule } from './documents.module.js';
import { PdfUploadInterceptor, type UploadedPdfs, Uploads } from './pdf-upload.js';

const FIELDS = [{ name: 'invoice', required: true }, { name: 'invoice_attachment' }];

@Controller('upload')
class UploadController {
  constructor(private readonly store: DocumentStore) {}

  @Post()
  @HttpCode(201)
  @PdfUploadInterceptor(FIELDS)
  async upload(@Uploads() uploads: UploadedPdfs, @Body() body: Record<string, unknown>) {
    for (const upload of Object.values(uploads)) {
      if (upload) await this.store.put(`company/invoices/${upload.fieldname}.pdf`, upload.path, 'application/pdf');
    }
    if (body.fail === 'yes') throw new AppError('invoice.incomplete', 'failing after the upload on purpose');
    return { uploads, body: { ...body } };
  }
}

/** A real PDF; `padBytes` adds a binary stream (as images and fonts are) to make it larger. */
async function makePdf(text = 'Rechnung', padBytes = 0): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText(text, { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  if (padBytes > 0) doc.context.register(doc.context.stream(randomBytes(padBytes)));
  return Buffer.from(await doc.save());
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Cleanup runs when the response closes, a moment after the client has the answer; work still in
 * flight then (a part whose file was being opened) must not leave anything behind either. */
async function eventuallyEmpty(dir: string): Promise<string[]> {
  for (let i = 0; i < 50 && (await filesUnder(dir)).length > 0; i++) await sleep(20);
  await sleep(100);
  return filesUnder(dir);
}

describe(PdfUploadInterceptor.name, () => {
  let work: string;
  let config: DocumentsConfig & LocalStoreConfig;
  let app: INestApplication;
  let pdf: Buffer;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pdf-upload-spec-'));
    config = { kind: 'local', dir: join(work, 'documents'), maxUploadMb: 0.25, uploadDir: join(work, 'uploads') };
    @Module({ imports: [DocumentsModule.forConfig(config)], controllers: [UploadController] })
    class UploadTestModule {}
    app = await NestFactory.create(UploadTestModule, { logger: false, bodyParser: false });
    app.useGlobalFilters(new ProblemFilter());
    await app.init();
    pdf = await makePdf();
  });

  afterAll(async () => {
    await app.close();
    await rm(work, { recursive: true, force: true });
  });

  afterEach(async () => {
    expect(await eventuallyEmpty(config.uploadDir)).toEqual([]);
    await rm(config.dir, { recursive: true, force: true });
  });

  const post = () => request(app.getHttpServer()).post('/upload');

  it('accepts real PDFs, with size and SHA-256, and the text fields', async () => {
    const attachment = await makePdf('Lieferschein', 5000);
    const res = await post()
      .field('external_id', 'ERP-1')
      .field('customer[name]', 'Muster GmbH')
      .attach('invoice', pdf, { filename: 'rechnung.pdf', contentType: 'application/pdf' })
      .attach('invoice_attachment', attachment, { filename: 'anlage.pdf', contentType: 'application/octet-stream' })
      .expect(201);
    expect(res.body.body).toEqual({ external_id: 'ERP-1', customer: { name: 'Muster GmbH' } });
    expect(res.body.uploads.invoice).toMatchObject({ fieldname: 'invoice', originalname: 'rechnung.pdf', size: pdf.length, sha256: sha256(pdf) });
    expect(res.body.uploads.invoice_attachment).toMatchObject({ size: attachment.length, sha256: sha256(attachment) });
    expect(await readFile(join(config.dir, 'company/invoices/invoice.pdf'))).toEqual(pdf);
    expect(await readFile(join(config.dir, 'company/invoices/invoice_attachment.pdf'))).toEqual(attachment);
  });

  it('removes the temp files when the handler fails after the upload', async () => {
    await post().field('fail', 'yes').attach('invoice', pdf, 'r.pdf').expect(422);
  });

  it('answers 422 naming the field when the required file is absent', async () => {
    for (const req of [post().attach('invoice_attachment', pdf, 'a.pdf'), post().field('external_id', 'x')]) {
      const res = await req.expect(422);
      expect(res.body).toMatchObject({ code: 'document.missing', errors: [{ field: 'invoice', message: 'invoice (a PDF file) is required' }] });
    }
    expect(await filesUnder(config.dir)).toEqual([]);
  });

  it.each<[string, (pdf: Buffer) => Buffer]>([
    ['a text file named .pdf', () => Buffer.from('Rechnung 42\nSumme: 100 EUR\n'.repeat(100))],
    ['an empty file', () => Buffer.alloc(0)],
    ['a file starting with %PDF- and garbage after it', () => Buffer.from(`%PDF-1.7\n${'garbage '.repeat(2000)}`)],
    ['a PDF cut in half', (real) => real.subarray(0, Math.floor(real.length / 2))],
    ['a PDF whose header comes after the first KiB', (real) => Buffer.concat([Buffer.alloc(1030, 0x20), real])],
  ])('answers 415 for %s and stores nothing', async (_name, variant) => {
    const bytes = variant(pdf);
    const res = await post()
      .attach('invoice', pdf, 'rechnung.pdf')
      .attach('invoice_attachment', bytes, { filename: 'anlage.pdf', contentType: 'application/pdf' })
      .expect(415);
    expect(res.body).toMatchObject({
      code: 'document.not_pdf',
      detail: 'invoice_attachment is not a PDF file',
      errors: [{ field: 'invoice_attachment', message: 'invoice_attachment is not a PDF file' }],
    });
    expect(await filesUnder(config.dir)).toEqual([]);
  });

  it('answers 415 naming the file for a body that is not multipart', async () => {
    for (const req of [post().send({ external_id: 'x' }), post().type('form').send({ external_id: 'x' }), post()]) {
      const res = await req.expect(415);
      expect(res.body).toMatchObject({ code: 'request.unsupported_media_type', errors: [{ field: 'invoice' }] });
    }
  });

  it('accepts the header anywhere in the first KiB', async () => {
    await post().attach('invoice', Buffer.concat([Buffer.alloc(1000, 0x20), pdf]), 'r.pdf').expect(201);
  });

  it('answers 413 for a file over MAX_UPLOAD_MB and stores nothing', async () => {
    const big = await makePdf('gross', 300 * 1024);
    expect(big.length).toBeGreaterThan(0.25 * 1024 * 1024);
    const res = await post().attach('invoice', pdf, 'r.pdf').attach('invoice_attachment', big, 'big.pdf').expect(413);
    expect(res.body).toMatchObject({ code: 'document.too_large', errors: [{ field: 'invoice_attachment' }] });
    expect(res.body.detail).toBe('invoice_attachment is larger than the limit of 0.25 MB');
    expect(await filesUnder(config.dir)).toEqual([]);
  });

  it('answers 422 for unexpected or repeated file fields', async () => {
    const unexpected = await post().attach('invoice', pdf, 'r.pdf').attach('logo', pdf, 'logo.pdf').expect(422);
    expect(unexpected.body).toMatchObject({ code: 'validation.failed', errors: [{ field: 'logo' }] });
    const twice = await post().attach('invoice', pdf, 'r.pdf').attach('invoice', pdf, 'r2.pdf').expect(422);
    expect(twice.body).toMatchObject({ code: 'validation.failed', errors: [{ field: 'invoice', message: 'invoice may hold only one file' }] });
    expect(await filesUnder(config.dir)).toEqual([]);
  });

  it('answers 400 for a malformed multipart body', async () => {
    const res = await post()
      .set('Content-Type', 'multipart/form-data; boundary=XYZ')
      .send('--XYZ\r\nContent-Disposition: form-data; name="invoice"; filename="r.pdf"\r\n\r\n%PDF-1.7 and the body ends here')
      .expect(400);
    expect(res.body.code).toBe('request.malformed');
  });

  it('answers 413 for too many form fields', async () => {
    let req = post();
    for (let i = 0; i < 201; i++) req = req.field(`f${i}`, 'x');
    expect((await req.expect(413)).body.code).toBe('request.payload_too_large');
  });

  it('leaves no temp file when the client goes away mid-upload', async () => {
    const server = app.getHttpServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const boundary = `b${randomUUID()}`;
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/upload', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 200_000 } });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="invoice"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    req.write(pdf.subarray(0, 1500));
    // Wait until the temp file exists, then drop the connection.
    for (let i = 0; i < 50 && (await filesUnder(config.uploadDir)).length === 0; i++) await sleep(10);
    expect((await filesUnder(config.uploadDir)).length).toBe(1);
    req.destroy();
    expect(await eventuallyEmpty(config.uploadDir)).toEqual([]);
    await new Promise((resolve) => server.close(resolve));
  });
});
