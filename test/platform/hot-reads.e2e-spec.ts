// Issue 21: the most polled reads (a customer, an invoice, a page of either) are answered by the hot-read
// dispatch (src/http/hot-reads) instead of Nest's router. A client must not be able to tell: the same
// status, body and headers as the router gives for the same request, errors included. Express routes a
// path with a trailing slash to the same handler, while the dispatch takes canonical paths only, so the
// router's answer is one slash away; HotReads.answered shows which of the two answered.
import type { Response } from 'supertest';
import { HotReads } from '../../src/http/hot-reads/hot-reads.js';
import { createContact, createCustomer, type Json } from '../support/factories.js';
import { type InvoiceApi, invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';

/** Headers whose values differ from one request to the next (the rate limit's count goes down by one). */
const PER_REQUEST = ['date', 'ratelimit-remaining'];

function wire(res: Response) {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_REQUEST.includes(name)));
  return { status: res.status, headers, names: Object.keys(res.headers).sort(), body: res.text };
}

describe('hot reads', () => {
  const t = useTestApp(invoiceSuiteConfig('hot-reads'), { company: true });
  let api: InvoiceApi;
  let hot: HotReads;
  let customer: Json;
  let invoice: Json;

  const answeredBy = async (send: () => PromiseLike<Response>) => {
    const before = hot.answered;
    const res = await send();
    return { res, hot: hot.answered > before };
  };

  beforeEach(async () => {
    api = invoiceApi(t.app, t.company);
    hot = t.app.get(HotReads);
    customer = await createCustomer(t.app, t.company, { external_id: 'Hot-1' });
    await createContact(t.app, t.company, customer.id, { name: 'Erika Mustermann' });
    await createContact(t.app, t.company, customer.id, { name: 'Max Mustermann' });
    await createCustomer(t.app, t.company, { external_id: 'Hot-2' });
    invoice = await api.createOk({ customer_id: customer.id, invoice_number: 'R-1', total: '119', 'options[autoskip_shipping]': 'true' });
    await api.createOk({ customer_id: customer.id, invoice_number: 'R-2', total: '10', 'options[autoskip_shipping]': 'true' });
    await api.payForm(invoice.id, { amount: '19.5', payment_date: '03.12.2026' }).expect(201);
  });

  it('answers every hot read, errors included, exactly as Nest’s router answers it', async () => {
    const paths = [
      `/api/v1/customers/${customer.id}`,
      '/api/v1/customers',
      '/api/v1/customers?page=2&per_page=1',
      '/api/v1/customers?page=9',
      `/api/v1/invoices/${invoice.id}`,
      '/api/v1/invoices?status=sent&per_page=1',
      '/api/v1/invoices?page=2&per_page=1&customer_id=' + customer.id,
      // 404, 400 (a bad page, a bad filter), 404 of a malformed id
      '/api/v1/customers/cus-00000000-0000-4000-8000-000000000000',
      '/api/v1/customers?page=0',
      '/api/v1/invoices?status=verschickt',
      '/api/v1/invoices/inv-nonsense',
      '/api/v1/customers/find',
    ];
    for (const path of paths) {
      // The same request id on both (a problem document carries it).
      const fast = await answeredBy(() => api.get(path).set('X-Request-ID', 'same-request'));
      const [pathname, query] = path.split('?');
      const routed = await answeredBy(() => api.get(`${pathname}/${query ? `?${query}` : ''}`).set('X-Request-ID', 'same-request'));
      expect({ path, hot: fast.hot, routerHot: routed.hot }).toEqual({ path, hot: true, routerHot: false });
      expect({ path, ...wire(fast.res) }).toEqual({ path, ...wire(routed.res) });
    }
    // The answers are the records, not only equal to each other.
    const one = await api.get(`/api/v1/customers/${customer.id}`).expect(200);
    expect(one.body.contacts.map((c: Json) => c.name)).toEqual(['Erika Mustermann', 'Max Mustermann']);
    expect(one.headers['ratelimit-remaining']).toMatch(/^\d+$/);
    const paid = await api.get(`/api/v1/invoices/${invoice.id}`).expect(200);
    expect(paid.body.invoice.payments).toHaveLength(1);
  });

  it('leaves every request that is not the ordinary case to the router, which answers it as before', async () => {
    const path = `/api/v1/customers/${customer.id}`;
    const cases: Array<[string, () => PromiseLike<Response>, number]> = [
      ['no credential', () => t.http.get(path), 401],
      ['an unknown token', () => t.http.get(path).set('Authorization', 'Token token=unbekannt'), 401],
      ['a malformed Token header', () => t.http.get(path).set('Authorization', 'Token abc'), 401],
      ['an API key (push only)', () => t.http.get(path).set('Authorization', `ApiKey ${t.company.apiKey}`), 401],
      ['HEAD', () => t.http.head(path).set('Authorization', t.company.auth), 200],
      ['other letters in the path', () => api.get(path.replace('customers', 'Customers')), 200],
      ['an encoded id', () => api.get(path.replace('cus-', 'cus%2D')), 200],
      ['a multipart Content-Type', () => api.get(path).set('Content-Type', 'multipart/form-data; boundary=x'), 415],
    ];
    for (const [what, send, status] of cases) {
      const { res, hot: taken } = await answeredBy(send);
      expect({ what, status: res.status, hot: taken }).toEqual({ what, status, hot: false });
    }
  });
});
