// The dunning suites' harness: a company with one customer and contact, invoices that are `sent`
// (shipped by the client) with reminders by e-mail, and runs for a given business date (the injected clock).
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { Json } from './factories.js';
import { makePdf } from './pdf.js';
import { registerCompany, resetDatabase, type TestCompany } from './test-app.js';

export type { Json } from './factories.js';

export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Complete legal details of a GmbH (shipping settings). */
export const LEGAL_DETAILS = {
  legal_form: 'gmbh',
  registered_office: 'Berlin',
  register_court: 'Amtsgericht Charlottenburg',
  register_number: 'HRB 12345',
  managing_directors: ['Erika Mustermann'],
  vat_id: 'DE123456789',
};

export class DunningHarness {
  company!: TestCompany;
  customerId!: string;
  private pdf!: Buffer;

  constructor(private readonly app: INestApplication) {}

  /**
   * A fresh database with one company (with the legal details its letters must carry, so a run warns of
   * nothing else), and a customer (`business` unless told) with an e-mail contact.
   */
  async reset(customerType: 'business' | 'consumer' = 'business'): Promise<void> {
    this.pdf ??= await makePdf('Rechnung');
    await resetDatabase(this.app);
    this.company = await registerCompany(this.app);
    await this.api().patch('/api/v1/shipping_settings').send(LEGAL_DETAILS).expect(200);
    this.customerId = await this.newCustomer(customerType);
  }

  async newCustomer(customerType: 'business' | 'consumer' = 'business'): Promise<string> {
    const customer = await this.api()
      .post('/api/v1/customers')
      .type('form')
      .send({
        name: 'Kunde AG',
        address_line1: 'Kunde AG',
        address_line3: 'Hauptstr. 1',
        zip: '10115',
        city: 'Berlin',
        country_code: 'DE',
        customer_type: customerType,
      })
      .expect(201);
    await this.api()
      .post('/api/v1/contacts')
      .type('form')
      .send({ name: 'Erika Muster', gender: 2, salutation: 0, email: 'erika@kunde.de', customer_id: customer.body.id })
      .expect(201);
    return customer.body.id;
  }

  api() {
    const server = this.app.getHttpServer();
    const auth = (req: request.Test) => req.set('Authorization', this.company.auth);
    return {
      get: (path: string) => auth(request(server).get(path)),
      post: (path: string) => auth(request(server).post(path)),
      put: (path: string) => auth(request(server).put(path)),
      patch: (path: string) => auth(request(server).patch(path)),
      delete: (path: string) => auth(request(server).delete(path)),
    };
  }

  /** A sent invoice (the client shipped it), whose reminders go out by e-mail. */
  async sentInvoice(dueDate: string, total = '100.00', extra: Record<string, string> = {}, customerId = this.customerId): Promise<string> {
    const req = this.api()
      .post('/api/v1/invoices')
      .field('customer_id', customerId)
      .field('total', total)
      .field('invoice_date', '2025-01-01')
      .field('due_date', dueDate)
      .field('options[autoskip_shipping]', 'true');
    for (const [k, v] of Object.entries(extra)) req.field(k, v);
    const res = await req.attach('invoice', this.pdf, 'r.pdf').expect(201);
    const id = res.body.invoice.id;
    await this.api().patch(`/api/v1/invoices/${id}`).send({ shipping_mode: 'email' }).expect(200);
    return id;
  }

  async policy(body: Json): Promise<void> {
    await this.api().put('/api/v1/dunning_policy').send(body).expect(200);
  }

  async invoice(id: string): Promise<Json> {
    return (await this.api().get(`/api/v1/invoices/${id}`).expect(200)).body.invoice;
  }

  async statusOf(id: string): Promise<string> {
    return (await this.invoice(id)).invoice_status;
  }

  async events(id: string): Promise<Json[]> {
    return (await this.api().get(`/api/v1/invoices/${id}/events`).expect(200)).body.events;
  }

  /** A run for the date: 201 when it was stored, 200 when it repeated a run of the date that left nothing to do. */
  async run(date: string): Promise<Json> {
    const res = await this.api().post('/api/v1/dunning_runs').send({ date });
    expect([res.status, res.body.repeated]).toEqual(res.status === 200 ? [200, true] : [201, false]);
    return res.body.dunning_run;
  }

  async pay(id: string, amount: string, paymentDate?: string): Promise<Json> {
    const res = await this.api()
      .post(`/api/v1/invoices/${id}/payments`)
      .send({ amount, ...(paymentDate ? { payment_date: paymentDate } : {}) })
      .expect(201);
    return res.body;
  }

  waitForStatus(id: string, status: string): Promise<true> {
    return waitFor(async () => ((await this.statusOf(id)) === status ? true : undefined), `${id} to be ${status}`);
  }

  /** Runs the date and waits until the invoice has reached the status (reminders ship asynchronously). */
  async runUntil(date: string, id: string, status: string): Promise<Json> {
    const run = await this.run(date);
    await this.waitForStatus(id, status);
    return run;
  }
}
