// Shared by the exception pages' suites: the app's configuration (quick push without retries, shipping
// through the outbox), a signed-in browser session with the company's REST and push API, flagged shipments.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { api as restApi, createContact, createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { apiKeyAuth, quickPush } from '../support/push.js';
import { shippingTestConfig } from '../support/shipping.js';
import type { TestCompany } from '../support/test-app.js';
import { registerUser, signIn, type WebUser } from './web-support.js';

/** The values of an attribute across the page, in document order (data-shipment, data-document …). */
export const ids = (html: string, attribute: string) => [...html.matchAll(new RegExp(`${attribute}="([^"]+)"`, 'g'))].map((m) => m[1]);

export const exceptionsConfig = (suite: string) => ({
  ...invoiceSuiteConfig(suite),
  ...quickPush({ retryLimit: 0 }),
  ...shippingTestConfig(),
});

export async function signedIn(app: INestApplication, user?: WebUser) {
  const who = user ?? (await registerUser(app));
  const agent = request.agent(app.getHttpServer());
  expect((await signIn(agent, who.email)).status).toBe(303);
  const rest = restApi(app, who.company);
  /** The push API (/v2) with the company's API key. */
  const v2 = (path: string) => request(app.getHttpServer()).get(path).set('Authorization', apiKeyAuth(who.company.apiKey));
  return { user: who, agent, rest, v2 };
}

/** Two invoices sent automatically to a customer whose only contact has no e-mail address (or who has no contact): both flagged. */
export async function flagged(app: INestApplication, company: TestCompany, withContact = true) {
  await restApi(app, company)
    .patchForm('/api/v1/shipping_settings', {
      sender_street: 'Hauptstraße 5',
      sender_zip: '10115',
      sender_city: 'Berlin',
      sender_email: 'buchhaltung@muster-handel.de',
      bank_iban: 'DE89 3704 0044 0532 0130 00',
      bank_bic: 'COBADEFFXXX',
      bank_name: 'Commerzbank',
    })
    .expect(200);
  const customer = await createCustomer(app, company, { name: 'Kunde ohne Mail AG', shipping_mode: 'email' });
  const contact = withContact ? await createContact(app, company, customer.id as string, { name: 'Erika Muster' }) : undefined;
  const invoices = invoiceApi(app, company);
  const made = [];
  for (const number of ['RE-1', 'RE-2']) {
    made.push(
      await invoices.createOk({
        customer_id: customer.id as string,
        ...(contact ? { contact_id: contact.id as string } : {}),
        invoice_number: number,
        total: '119',
        invoice_date: '2026-11-02',
        due_date: '2026-11-16',
        'options[autosend]': 'true',
      }),
    );
  }
  return { customer, contact, invoices: made };
}
