// Helpers of the push suites: an app whose retries are quick, pushing JSON documents, and waiting for
// the worker to bring a document to a status.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { AppConfig } from '../../src/config/app.config.js';
import type { IntegrationConfig } from '../../src/config/integration.config.js';
import { dataSource, resetDatabase, startTestApp, testConfig } from './test-app.js';
import { withoutRateLimits } from './factories.js';

/** Push settings for tests: retries after ~1, 2, 4 s, deferrals after 1 s, short attempt timeout. */
export function quickPush(push: Partial<IntegrationConfig['push']> = {}, rest: Partial<AppConfig> = {}): Partial<AppConfig> {
  const base = testConfig().integration;
  return {
    ...withoutRateLimits(),
    integration: { ...base, push: { ...base.push, retryBaseSeconds: 1, deferSeconds: 1, attemptTimeoutSeconds: 30, ...push } },
    ...rest,
  };
}

export function startPushApp(push: Partial<IntegrationConfig['push']> = {}, rest: Partial<AppConfig> = {}): Promise<INestApplication> {
  return startTestApp(quickPush(push, rest));
}

/** resetDatabase, which tries its TRUNCATE again when it deadlocks with the app's background work. */
export const resetPushDatabase = resetDatabase;

export const apiKeyAuth = (key: string) => `ApiKey ${key}`;

export function pushDocument(app: INestApplication, authorization: string, body: unknown) {
  return request(app.getHttpServer())
    .post('/v2/documents')
    .set('Authorization', authorization)
    .type('json')
    .send(body as object);
}

export async function pushAccepted(app: INestApplication, authorization: string, body: unknown): Promise<string> {
  const res = await pushDocument(app, authorization, body);
  if (res.status !== 202) throw new Error(`push not accepted: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.document.id as string;
}

export interface DocumentWire {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
  outcome: string | null;
  result: { type: string; id: string } | null;
  version: number;
  [key: string]: unknown;
}

/** Polls GET /v2/documents/<id> until the document has one of the statuses. */
export async function waitForStatus(
  app: INestApplication,
  authorization: string,
  id: string,
  statuses: string[],
  timeoutMs = 45_000,
): Promise<DocumentWire> {
  const until = Date.now() + timeoutMs;
  let last: DocumentWire | undefined;
  while (Date.now() < until) {
    const res = await request(app.getHttpServer()).get(`/v2/documents/${id}`).set('Authorization', authorization);
    last = res.body.document as DocumentWire;
    if (last && statuses.includes(last.status)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`document ${id} did not reach ${statuses.join('/')} in ${timeoutMs} ms: ${JSON.stringify(last)}`);
}

export async function auditSteps(app: INestApplication, documentId: string): Promise<string[]> {
  const rows: Array<{ step: string; attempt: number | null }> = await dataSource(app).query(
    `SELECT step, attempt FROM push_audit_log WHERE document_id = $1 ORDER BY id`,
    [documentId.slice(4)],
  );
  return rows.map((r) => (r.attempt !== null && ['attempt', 'succeeded', 'failed'].includes(r.step) ? `${r.step} ${r.attempt}` : r.step));
}

export function customerFields(n: number | string) {
  return {
    name: `Kunde ${n} GmbH`,
    address_line1: `Kunde ${n} GmbH`,
    address_line3: `Weg ${n}`,
    zip: '10115',
    city: 'Berlin',
    country_code: 'DE',
  };
}

export function invoiceDocument(externalId: string, customerExternalId: string, overrides: Record<string, unknown> = {}) {
  return {
    document_type: 'invoice',
    external_id: externalId,
    amount: '119.00',
    customer_external_id: customerExternalId,
    customer: customerFields(customerExternalId),
    invoice_number: `R-${externalId}`,
    invoice_date: '2026-11-02',
    due_date: '16.11.2026',
    ...overrides,
  };
}
