// Invoices through the public API (multipart create with generated PDFs, reads, payments, actions),
// plus the SQL short cuts the invoice suites need to reach states the API cannot reach yet (reminder
// fees before dunning exists, any status as the source of a transition) and views of what is stored.
import type { INestApplication } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import request, { type Response } from 'supertest';
import type { AppConfig } from '../../src/config/app.config.js';
import { type Json, withoutRateLimits } from './factories.js';
import { makePdf } from './pdf.js';
import { dataSource, TEST_DATA_DIR, type TestCompany, testConfig } from './test-app.js';

export type Fields = Record<string, string>;

/** The files of a create request; `invoice: null` sends none. */
export interface InvoiceFiles {
  invoice?: Buffer | null;
  invoice_attachment?: Buffer;
}

let defaultPdf: Promise<Buffer> | undefined;
/** One generated PDF shared by the requests that do not care about its content. */
export function samplePdf(): Promise<Buffer> {
  defaultPdf ??= makePdf('Rechnung');
  return defaultPdf;
}

/**
 * A suite's app config: rate limits out of the way (the suites send hundreds of requests), a temp
 * upload folder of its own, so that a test can check that no upload is left behind, and no delivery
 * workers: an invoice handed to shipping stays as the answer left it while the test looks.
 */
export function invoiceSuiteConfig(suite: string, documents: Partial<AppConfig['documents']> = {}): Partial<AppConfig> {
  const base = testConfig();
  return {
    ...withoutRateLimits(),
    documents: {
      ...base.documents,
      uploadDir: join(TEST_DATA_DIR, 'uploads', `${suite}-${process.pid}`),
      ...documents,
    } as AppConfig['documents'],
    shipping: { ...base.shipping, workers: false },
  };
}

/** The required nested parameters of a new customer in an extended create, with overrides. */
export function nestedCustomer(overrides: Fields = {}, name = 'Neu AG'): Fields {
  return {
    'customer[name]': name,
    'customer[address_line1]': name,
    'customer[address_line3]': 'Allee 2',
    'customer[zip]': '20095',
    'customer[city]': 'Hamburg',
    'customer[country_code]': 'DE',
    ...overrides,
  };
}

/** The required nested parameters of a new contact, with overrides. */
export function nestedContact(overrides: Fields = {}): Fields {
  return { 'contact[name]': 'Erika Muster', 'contact[gender]': '2', 'contact[salutation]': '0', ...overrides };
}

export function invoiceApi(app: INestApplication, company: Pick<TestCompany, 'auth'>) {
  const server = app.getHttpServer();
  const as = (req: request.Test) => req.set('Authorization', company.auth);
  return {
    /** POST /api/v1/invoices as multipart; the invoice PDF is a generated one unless given. */
    async create(fields: Fields, files: InvoiceFiles = {}, headers: Record<string, string> = {}): Promise<Response> {
      const req = as(request(server).post('/api/v1/invoices'));
      for (const [name, value] of Object.entries(headers)) req.set(name, value);
      for (const [name, value] of Object.entries(fields)) req.field(name, value);
      const invoice = files.invoice === undefined ? await samplePdf() : files.invoice;
      if (invoice) req.attach('invoice', invoice, { filename: 'rechnung.pdf', contentType: 'application/pdf' });
      if (files.invoice_attachment)
        req.attach('invoice_attachment', files.invoice_attachment, { filename: 'anlage.pdf', contentType: 'application/pdf' });
      return req;
    },
    /** Creates and returns the invoice JSON; fails the test with the answer otherwise. */
    async createOk(fields: Fields, files: InvoiceFiles = {}): Promise<Json> {
      const res = await this.create(fields, files);
      if (res.status !== 201) throw new Error(`invoice not created: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.invoice;
    },
    get: (path: string) => as(request(server).get(path)),
    invoice: (id: string) => as(request(server).get(`/api/v1/invoices/${id}`)),
    list: (query = '') => as(request(server).get(`/api/v1/invoices${query}`)),
    find: (externalId: string) => as(request(server).get(`/api/v1/invoices/find/${encodeURIComponent(externalId)}`)),
    patchForm: (id: string, body: Fields) =>
      as(request(server).patch(`/api/v1/invoices/${id}`))
        .type('form')
        .send(body),
    patchJson: (id: string, body: unknown) =>
      as(request(server).patch(`/api/v1/invoices/${id}`))
        .type('json')
        .send(body as object),
    pdf: (id: string) => as(request(server).get(`/api/v1/invoices/${id}/pdf`)),
    attachment: (id: string) => as(request(server).get(`/api/v1/invoices/${id}/attachment`)),
    events: (id: string) => as(request(server).get(`/api/v1/invoices/${id}/events`)),
    payForm: (id: string, body: Fields, headers: Record<string, string> = {}) =>
      as(request(server).post(`/api/v1/invoices/${id}/payments`))
        .set(headers)
        .type('form')
        .send(body),
    payJson: (id: string, body: unknown, headers: Record<string, string> = {}) =>
      as(request(server).post(`/api/v1/invoices/${id}/payments`))
        .set(headers)
        .type('json')
        .send(body as object),
    deletePayment: (id: string, paymentId: string) => as(request(server).delete(`/api/v1/invoices/${id}/payments/${paymentId}`)),
    act: (id: string, action: string, body?: Fields, headers: Record<string, string> = {}) => {
      const req = as(request(server).post(`/api/v1/invoices/${id}/${action}`)).set(headers);
      return body ? req.type('form').send(body) : req;
    },
  };
}

export type InvoiceApi = ReturnType<typeof invoiceApi>;

const bare = (publicId: string): string => publicId.slice(publicId.indexOf('-') + 1);

/** Every file the local document store holds for the company (paths relative to its folder), sorted. */
export async function storedFiles(company: Pick<TestCompany, 'id'>): Promise<string[]> {
  const root = join(TEST_DATA_DIR, 'documents', bare(company.id));
  return (await filesUnder(root)).map((path) => relative(root, path)).sort();
}

/** The bytes the store holds under a file of storedFiles(). */
export function storedFile(company: Pick<TestCompany, 'id'>, path: string): Promise<Buffer> {
  return readFile(join(TEST_DATA_DIR, 'documents', bare(company.id), path));
}

/** Files (not folders) below a folder; none when it does not exist. */
export async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Temp upload files still present; they go when the response closes, so this waits a moment for that. */
export async function leftoverUploads(config: Partial<AppConfig>, waitMs = 1000): Promise<string[]> {
  const dir = config.documents?.uploadDir ?? '';
  const deadline = Date.now() + waitMs;
  for (;;) {
    const files = await filesUnder(dir);
    if (files.length === 0 || Date.now() > deadline) return files;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function tableCounts(
  app: INestApplication,
): Promise<{ invoices: number; customers: number; contacts: number; payments: number; events: number }> {
  const [row] = await dataSource(app).query(
    `SELECT (SELECT count(*) FROM invoices)::int AS invoices, (SELECT count(*) FROM customers)::int AS customers,
            (SELECT count(*) FROM contacts)::int AS contacts, (SELECT count(*) FROM payments)::int AS payments,
            (SELECT count(*) FROM invoice_events)::int AS events`,
  );
  return row;
}

/** An invoices row as Postgres holds it: numerics as text, bytea as a Buffer. */
export type InvoiceRow = Record<string, unknown> & { original_total: string; pdf_sha256: Buffer | null; attachment_sha256: Buffer | null };

export async function invoiceRow(app: INestApplication, invoiceId: string): Promise<InvoiceRow> {
  const [row] = await dataSource(app).query<InvoiceRow[]>('SELECT * FROM invoices WHERE id = $1', [bare(invoiceId)]);
  return row;
}

/** Puts an invoice into a status directly (the dunning run and shipping that would get it there come later). */
export async function setStatus(
  app: INestApplication,
  invoiceId: string,
  status: string,
  statusBeforePaid: string | null = null,
): Promise<void> {
  await dataSource(app).query('UPDATE invoices SET status = $2, status_before_paid = $3 WHERE id = $1', [
    bare(invoiceId),
    status,
    statusBeforePaid,
  ]);
}

/** Books reminder fees on an invoice the way dunning will, keeping open = original + fees − paid − waived. */
export async function setReminderFees(app: INestApplication, invoiceId: string, fees: string): Promise<void> {
  await dataSource(app).query(
    'UPDATE invoices SET reminder_fees = $2::numeric, open_amount = original_total + $2::numeric + default_interest + flat_fee - paid_amount - waived_amount WHERE id = $1',
    [bare(invoiceId), fees],
  );
}

export async function setCompanySettings(
  app: INestApplication,
  company: Pick<TestCompany, 'id'>,
  settings: { autosend?: boolean; autoskipShipping?: boolean },
): Promise<void> {
  await dataSource(app).query(
    'UPDATE companies SET autosend = coalesce($2, autosend), autoskip_shipping = coalesce($3, autoskip_shipping) WHERE id = $1',
    [bare(company.id), settings.autosend ?? null, settings.autoskipShipping ?? null],
  );
}

export interface WireEvent {
  id: number;
  kind: string;
  from_status: string | null;
  to_status: string | null;
  actor: { type: string; id: string | null };
  reason: string | null;
  details: Record<string, unknown> | null;
  created_at: string;
}

/** The status changes of an invoice, oldest first, as [from, to] pairs. */
export async function statusChanges(api: InvoiceApi, invoiceId: string): Promise<Array<[string | null, string | null]>> {
  const res = await api.events(invoiceId).expect(200);
  return (res.body.events as WireEvent[]).filter((e) => e.kind === 'status_changed').map((e) => [e.from_status, e.to_status]);
}

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

export async function fileSize(path: string): Promise<number> {
  return (await stat(path)).size;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const INVOICE_ID = new RegExp(`^inv-${UUID}$`);
export const PAYMENT_ID = new RegExp(`^pay-${UUID}$`);

/** The keys of the spec's Invoice table, exactly. */
export const INVOICE_KEYS = [
  'id',
  'external_id',
  'invoice_status',
  'invoice_number',
  'service_url',
  'invoice_attachment',
  'additional_number',
  'total',
  'original_total',
  'reminder_fees',
  'open_amount',
  'order_date',
  'invoice_date',
  'due_date',
  'time_for_payment',
  'source',
  'shipping_mode',
  'written_off_at',
  'ignore_reminder_fees',
  'created_at',
  'updated_at',
  'customer',
  'contact',
  'payments',
  'reminders',
].sort();

/**
 * Fields beyond the spec's table that other issues add to the invoice (the dunning issue's block). The
 * wire test accepts exactly these on top of the spec's keys, nothing else.
 */
export const INVOICE_EXTENSION_KEYS = [
  'dunning_block',
  'default_interest',
  'accrued_interest',
  'default_since',
  'flat_fee',
  'waived_amount',
  'pdf_active_content',
];

/** The invoice has every key of the spec's table and, beyond them, only the known extensions. */
export function expectInvoiceKeys(invoice: Record<string, unknown>): void {
  const keys = Object.keys(invoice);
  expect(keys.filter((key) => !INVOICE_EXTENSION_KEYS.includes(key)).sort()).toEqual(INVOICE_KEYS);
}

export const PAYMENT_KEYS = [
  'id',
  'external_id',
  'amount',
  'payment_date',
  'note',
  'source',
  'inkasso_payment',
  'created_at',
  'updated_at',
].sort();
export const REMINDER_KEYS = ['id', 'reminder_stage', 'reminder_date', 'last_sent_at', 'shipping_mode', 'fees'].sort();
/** The dunning issue's BGB § 288 charges on a reminder, beyond the spec's record. */
export const REMINDER_EXTENSION_KEYS = ['default_interest', 'flat_fee', 'lines'];
export const CUSTOMER_REFERENCE_KEYS = ['id', 'external_id', 'name', 'customer_number', 'address', 'created_at', 'updated_at'].sort();
export const CONTACT_REFERENCE_KEYS = ['id', 'external_id', 'name', 'gender', 'salutation', 'email', 'created_at', 'updated_at'].sort();
