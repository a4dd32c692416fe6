// The companies of the README's workbench and dead-letter screenshots, seeded through the API as an
// accountant's day would leave them: reminders proposed by yesterday's run waiting for approval, and
// payments pushed by the ERP for invoices the service does not know (dead letters after their retries).
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { LEGAL_DETAILS } from '../support/dunning.js';
import { createContact, createCustomer } from '../support/factories.js';
import { invoiceApi } from '../support/invoice-factories.js';
import { apiKeyAuth, pushAccepted, waitForStatus } from '../support/push.js';
import type { TestCompany } from '../support/test-app.js';

/** A calendar date `days` before today (UTC), YYYY-MM-DD. */
export function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

/** Customers, their contact, and how many days ago each of their open invoices fell due. */
const DEBTORS: Array<[string, string, string, number[]]> = [
  ['Bäckerei Schmidt GmbH', 'Anna Schmidt', 'buchhaltung@baeckerei-schmidt.de', [19, 26]],
  ['Hotel Seeblick GmbH', 'Jonas Krüger', 'j.krueger@hotel-seeblick.de', [21]],
  ['Autohaus Becker e.K.', 'Thomas Becker', 'rechnungen@autohaus-becker.de', [18, 23, 30]],
  ['Praxis Dr. Weber', 'Dr. Maria Weber', 'praxis@dr-weber.de', [25]],
  ['Gärtnerei Lindenhof GbR', 'Peter Lindner', 'info@lindenhof-gaertnerei.de', [20, 9]],
  // Seven days overdue today (the first stage's wait), six yesterday: in today's proposal, not yet waiting.
  ['Stadtwerke Nordheim AG', 'Sabine Vogel', 'kreditoren@stadtwerke-nordheim.de', [7]],
  ['Müller & Söhne KG', 'Klaus Müller', 'buchhaltung@mueller-soehne.de', [7, 28]],
];

const api = (app: INestApplication, company: TestCompany) => ({
  put: (path: string, body: object) => request(app.getHttpServer()).put(path).set('Authorization', company.auth).send(body),
  patch: (path: string, body: object) => request(app.getHttpServer()).patch(path).set('Authorization', company.auth).send(body),
  post: (path: string, body: object) => request(app.getHttpServer()).post(path).set('Authorization', company.auth).send(body),
});

/**
 * Approval mode with a fee on every stage; yesterday's run proposed the first reminders of six customers'
 * overdue invoices, and today's proposal shows the two that fell due a day later.
 */
export async function seedWorkbench(app: INestApplication, company: TestCompany): Promise<void> {
  await api(app, company).patch('/api/v1/shipping_settings', LEGAL_DETAILS).expect(200);
  await api(app, company)
    .put('/api/v1/dunning_policy', {
      auto_ship: false,
      run_at: '23:59',
      levels: [{ fee: '5.00' }, { fee: '7.50' }, { fee: '10.00' }],
    })
    .expect(200);
  const invoices = invoiceApi(app, company);
  let n = 412;
  for (const [name, contact, email, dues] of DEBTORS) {
    const customer = await createCustomer(app, company, { name });
    await createContact(app, company, customer.id as string, { name: contact, email });
    for (const due of dues) {
      const total = (240 + ((n * 731) % 3900) + 0.9 * (n % 4)).toFixed(2);
      await invoices.createOk({
        customer_id: customer.id as string,
        invoice_number: `RE-2026-${String(n++).padStart(4, '0')}`,
        total,
        invoice_date: daysAgo(due + 14),
        due_date: daysAgo(due),
        'options[autoskip_shipping]': 'true',
      });
    }
  }
  await api(app, company)
    .post('/api/v1/dunning_runs', { date: daysAgo(1) })
    .expect(201);
}

/** Payments the ERP pushed for invoices not (yet) known here: dead letters once their one attempt failed. */
export async function seedDeadLetters(app: INestApplication, company: TestCompany): Promise<void> {
  const auth = apiKeyAuth(company.apiKey);
  const payments: Array<[string, string, string]> = [
    ['ZE-2026-1187', '1249.50', 'RE-2026-0398'],
    ['ZE-2026-1192', '380.00', 'RE-2026-0401'],
    ['ZE-2026-1204', '2015.30', 'RE-2026-0405'],
    ['ZE-2026-1211', '96.90', 'RE-2025-1377'],
  ];
  for (const [externalId, amount, invoice] of payments) {
    const id = await pushAccepted(app, auth, {
      document_type: 'payment',
      external_id: externalId,
      amount,
      invoice_external_id: invoice,
      payment_date: daysAgo(2),
    });
    await waitForStatus(app, auth, id, ['dead_lettered']);
  }
}
