// Shared by the shipping suites: the app's mail and shipping configuration for a test, invoices and
// parties created through the API, and waiting for the delivery worker.
import type { INestApplication } from '@nestjs/common';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { AppConfig } from '../../src/config/app.config.js';
import { loadMailConfig } from '../../src/config/mail.config.js';
import { loadShippingConfig } from '../../src/config/shipping.config.js';
import { SMTP_CA_FILE } from './smtp.js';
import { TEST_DATA_DIR, type TestCompany } from './test-app.js';

/** Mail through the test SMTP server (STARTTLS required), or the outbox without one; fast polling, retries and sweeps. */
export function shippingTestConfig(
  smtpUrl?: string,
  overrides: Record<string, string> = {},
): Partial<AppConfig> & { mail: AppConfig['mail']; shipping: AppConfig['shipping'] } {
  mkdirSync(TEST_DATA_DIR, { recursive: true });
  const dir = mkdtempSync(join(TEST_DATA_DIR, 'shipping-'));
  const env = {
    SMTP_URL: smtpUrl,
    SMTP_CA_FILE: smtpUrl ? SMTP_CA_FILE : undefined,
    SMTP_REQUIRE_TLS: 'true',
    SMTP_TIMEOUT_SECONDS: '5',
    SMTP_HELO_NAME: 'mailer.receivables.test',
    MAIL_FROM: 'rechnungen@receivables.test',
    SHIPPING_RETRY_DELAY_SECONDS: '1',
    SHIPPING_POLL_SECONDS: '0.5',
    PRINT_BATCH_DIR: join(dir, 'print-batches'),
    PRINT_BATCH_REFRESH_SECONDS: '0',
    SHIPPING_SWEEP_SECONDS: '1',
    ...overrides,
  };
  return { mail: loadMailConfig(env, dir, false), shipping: loadShippingConfig(env, dir) };
}

export { waitFor } from './wait.js';

export function shippingApi(app: INestApplication, company: TestCompany) {
  const http = () => request(app.getHttpServer());
  const auth = <T extends request.Test>(req: T) => req.set('Authorization', company.auth);
  return {
    get: (path: string) => auth(http().get(path)),
    post: (path: string, body: object = {}) => auth(http().post(path)).send(body),
    patch: (path: string, body: object) => auth(http().patch(path)).send(body),
    /** Multipart create with the invoice PDF (and an attachment when given). */
    createInvoice(fields: Record<string, string>, pdf: Buffer, attachment?: Buffer) {
      const req = auth(http().post('/api/v1/invoices'));
      for (const [key, value] of Object.entries(fields)) req.field(key, value);
      req.attach('invoice', pdf, { filename: 'rechnung.pdf', contentType: 'application/pdf' });
      if (attachment) req.attach('invoice_attachment', attachment, { filename: 'anlage.pdf', contentType: 'application/pdf' });
      return req;
    },
    async customer(fields: Record<string, string>) {
      const res = await auth(http().post('/api/v1/customers')).type('form').send(fields);
      if (res.status !== 201) throw new Error(`customer: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: string };
    },
    async contact(fields: Record<string, string>) {
      const res = await auth(http().post('/api/v1/contacts')).type('form').send(fields);
      if (res.status !== 201) throw new Error(`contact: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.contact as { id: string };
    },
    async invoiceStatus(id: string): Promise<string> {
      return (await auth(http().get(`/api/v1/invoices/${id}`))).body.invoice.invoice_status;
    },
    async deliveries(id: string) {
      const res = await auth(http().get(`/api/v1/invoices/${id}/deliveries`)).expect(200);
      return res.body as { deliveries: Array<Record<string, unknown>>; shipments: Array<Record<string, unknown>> };
    },
    async events(id: string): Promise<Array<{ kind: string; reason: string | null; to_status: string | null; actor: { type: string } }>> {
      return (await auth(http().get(`/api/v1/invoices/${id}/events`)).expect(200)).body.events;
    },
  };
}
