// Request bodies with overrides, records created through the public API, and the checks every e2e
// suite shares (problem documents, wire formats).
import type { INestApplication } from '@nestjs/common';
import request, { type Response } from 'supertest';
import { type AppConfig, loadConfig } from '../../src/config/app.config.js';
import type { TestCompany } from './test-app.js';
import { dataSource, PUBLIC_URL } from './test-app.js';

export type FormBody = Record<string, unknown>;

/** A JSON object off the wire, typed as supertest types res.body: the assertions are what check its shape. */
export type Json = Record<string, Response['body']>;

/**
 * Rate limits lifted out of the way, for suites that send hundreds of requests (or of failed
 * authentications) on purpose: `startTestApp(withoutRateLimits())`. The limits have their own suite.
 */
export function withoutRateLimits(): Partial<AppConfig> {
  const env = { APP_ENV: 'test', PUBLIC_URL, RATE_LIMIT_PER_MINUTE: '1000000', FAILED_AUTH_PER_MINUTE: '1000000' };
  return { rateLimit: loadConfig(env).rateLimit };
}

let seq = 0;
const next = (): number => ++seq;

/** The required parameters of "Create customer", plus whatever the test overrides or adds. */
export function customerParams(overrides: FormBody = {}): FormBody {
  const n = next();
  return {
    name: `Kunde ${n} GmbH`,
    address_line1: `Kunde ${n} GmbH`,
    address_line3: `Musterstraße ${n}`,
    zip: '10115',
    city: 'Berlin',
    country_code: 'DE',
    ...overrides,
  };
}

/** Every parameter of "Create customer", all set. */
export function fullCustomerParams(overrides: FormBody = {}): FormBody {
  return customerParams({
    name: 'Muster GmbH',
    address_line1: 'Muster GmbH',
    address_line2: 'z. Hd. Erika Mustermann',
    address_line3: 'Musterstraße 1',
    address_line4: 'Hinterhaus',
    zip: '10115',
    city: 'Berlin',
    country_code: 'DE',
    phone: '+49 30 1234567',
    customer_number: 'K-10001',
    additional_number: 'A-77',
    external_id: 'ERP-4711',
    customer_group_id: 'grp-b2b',
    stop_automatic_reminders: 'true',
    shipping_mode: 'dual_shipping',
    note: 'Zahlt immer pünktlich',
    ...overrides,
  });
}

/** The required parameters of "Create contact" (the customer reference is the caller's choice). */
export function contactParams(overrides: FormBody = {}): FormBody {
  return { name: `Kontakt ${next()}`, gender: '2', salutation: '0', ...overrides };
}

export function api(app: INestApplication, company: Pick<TestCompany, 'auth'>) {
  const server = app.getHttpServer();
  return {
    get: (path: string) => request(server).get(path).set('Authorization', company.auth),
    postForm: (path: string, body: FormBody) => request(server).post(path).set('Authorization', company.auth).type('form').send(body),
    patchForm: (path: string, body: FormBody) => request(server).patch(path).set('Authorization', company.auth).type('form').send(body),
    postJson: (path: string, body: unknown) =>
      request(server)
        .post(path)
        .set('Authorization', company.auth)
        .type('json')
        .send(body as object),
    patchJson: (path: string, body: unknown) =>
      request(server)
        .patch(path)
        .set('Authorization', company.auth)
        .type('json')
        .send(body as object),
  };
}

export async function createCustomer(app: INestApplication, company: TestCompany, overrides: FormBody = {}) {
  const res = await api(app, company).postForm('/api/v1/customers', customerParams(overrides));
  if (res.status !== 201) throw new Error(`customer not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createContact(app: INestApplication, company: TestCompany, customerId: string, overrides: FormBody = {}) {
  const res = await api(app, company).postForm('/api/v1/contacts', contactParams({ customer_id: customerId, ...overrides }));
  if (res.status !== 201) throw new Error(`contact not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.contact;
}

/** An RFC 9457 problem document with this status, as DESIGN.md describes it. */
export function expectProblem(res: Response, status: number): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { status } });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toEqual(
    expect.objectContaining({
      type: expect.any(String),
      title: expect.any(String),
      status,
      detail: expect.any(String),
      errors: expect.any(Array),
    }),
  );
}

/** The fields a 422 names, in the order given. */
export function errorFields(res: Response): string[] {
  return (res.body.errors as Array<{ field: string }>).map((e) => e.field);
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const CUSTOMER_ID = new RegExp(`^cus-${UUID}$`);
export const CONTACT_ID = new RegExp(`^con-${UUID}$`);
/** `2026-11-21T20:53:00+01:00`: seconds precision and a numeric offset, never `Z` or milliseconds. */
export const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/** The offset (`+01:00`) that a time zone has at an instant. */
export function offsetIn(timeZone: string, instant: Date): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName')?.value;
  return name === 'GMT' ? '+00:00' : (name ?? '').replace('GMT', '');
}

/** Row counts of the tables a customer/contact request writes. */
export async function rowCounts(app: INestApplication): Promise<{ customers: number; contacts: number }> {
  const [row] = await dataSource(app).query(
    'SELECT (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM contacts)::int AS contacts',
  );
  return row;
}

/** Moves a record's timestamps to a fixed instant, so that formats and changes can be asserted exactly. */
export async function setTimestamps(app: INestApplication, table: 'customers' | 'contacts', publicId: string, iso: string): Promise<void> {
  await dataSource(app).query(`UPDATE ${table} SET created_at = $1, updated_at = $1 WHERE id = $2`, [iso, publicId.slice(4)]);
}
