// The main flow through a client generated from openapi.json, as an integrator would build one: the
// types from openapi-typescript (npm run openapi:client, made before every typecheck), the calls with
// openapi-fetch against the listening service. The compiler checks every path, parameter and body here
// against the document; each answer is checked against its schema as the supertest answers are.
import type { AddressInfo } from 'node:net';
import createClient, { type Middleware } from 'openapi-fetch';
import { makePdf } from '../support/pdf.js';
import type { paths } from '../support/generated/openapi.js';
import { responseValidator } from '../support/openapi-validation.js';
import { withoutRateLimits } from '../support/factories.js';
import { useTestApp } from '../support/use-test-app.js';

/** Fails the call when the answer is not the one the document states for the operation and status. */
const validated: Middleware = {
  async onResponse({ request, response }) {
    const text = await response.clone().text();
    const contentType = response.headers.get('content-type') ?? undefined;
    const drift = responseValidator().check({
      method: request.method,
      url: request.url,
      status: response.status,
      contentType,
      body: text && contentType?.includes('json') ? JSON.parse(text) : text,
      hasBody: text.length > 0,
    });
    if (drift) throw new Error(drift);
    return response;
  },
};

describe('the client generated from openapi.json', () => {
  const t = useTestApp(withoutRateLimits(), { company: true });
  let baseUrl: string;

  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });

  const client = (authorization: string) => {
    const api = createClient<paths>({ baseUrl, headers: { Authorization: authorization } });
    api.use(validated);
    return api;
  };

  it('drives the main flow: customer, contact, invoice upload, payment, push', async () => {
    const api = client(t.company.auth);
    const customer = await api.POST('/api/v1/customers', {
      body: {
        name: 'Muster GmbH',
        address_line1: 'Muster GmbH',
        address_line3: 'Musterstraße 1',
        zip: '10115',
        city: 'Berlin',
        country_code: 'DE',
        external_id: 'K-1',
      },
    });
    expect(customer.response.status).toBe(201);
    const customerId = customer.data!.id;

    const contact = await api.POST('/api/v1/contacts', {
      body: { name: 'Erika Mustermann', gender: 2, salutation: 0, customer_id: customerId, email: 'erika@muster.example' },
    });
    expect(contact.response.status).toBe(201);
    expect(contact.data!.contact.customer.id).toBe(customerId);

    const pdf = await makePdf('Rechnung RE-1');
    const upload = await api.POST('/api/v1/invoices', {
      body: {
        external_id: 'RE-1',
        customer_id: customerId,
        contact_id: contact.data!.contact.id,
        invoice_number: 'RE-1',
        total: '119,00',
        invoice_date: '21.11.2026',
        invoice: 'r.pdf',
      },
      // The file goes as a part of its own; the other fields as text parts.
      bodySerializer: (fields) => {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields as Record<string, unknown>)) {
          if (name === 'invoice') form.append(name, new Blob([pdf], { type: 'application/pdf' }), 'invoice.pdf');
          else if (typeof value === 'string') form.append(name, value);
        }
        return form;
      },
    });
    expect(upload.response.status).toBe(201);
    const invoiceId = upload.data!.invoice.id;
    expect(upload.data!.invoice).toMatchObject({ total: '119.0', open_amount: '119.0' });

    const paid = await api.POST('/api/v1/invoices/{id}/payments', { params: { path: { id: invoiceId } }, body: { amount: '19.5' } });
    expect(paid.response.status).toBe(201);
    expect(paid.data!.invoice.open_amount).toBe('99.5');

    const push = client(`ApiKey ${t.company.apiKey}`);
    const pushed = await push.POST('/v2/documents', {
      body: { document_type: 'payment', external_id: 'Z-1', amount: '99,50', invoice_external_id: 'RE-1' },
    });
    expect(pushed.response.status).toBe(202);
    const documentId = pushed.data!.document.id;
    let status = pushed.data!.document.status;
    for (let tries = 0; status !== 'processed' && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const read = await push.GET('/v2/documents/{id}', { params: { path: { id: documentId } } });
      status = read.data!.document.status;
      expect(status).not.toMatch(/dead_lettered|discarded/);
    }
    expect(status).toBe('processed');

    const invoice = await api.GET('/api/v1/invoices/{id}', { params: { path: { id: invoiceId } } });
    expect(invoice.data!.invoice.open_amount).toBe('0.0');
    const missing = await api.GET('/api/v1/invoices/{id}', { params: { path: { id: 'inv-00000000-0000-4000-8000-000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'invoice.not_found', status: 404 });
  });
});
