// The customer list over HTTP (no browser): search, sort and pagination, a malformed query, and each
// customer's sums against the API's invoices.
import { todayIn } from '../../src/common/calendar-date.js';
import { OPEN_STATUSES } from '../../src/invoices/invoice-status.js';
import { api, createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { agentOf as signedIn, euro, listed } from './customers-support.js';
import { registerUser, type WebUser } from './web-support.js';

describe('customer list (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-customers'));
  const agentOf = (user: WebUser) => signedIn(t.app, user);

  it('sends a signed-out visitor to sign in and back to the list', async () => {
    const res = await t.http.get('/customers?q=abc').expect(303);
    expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent('/customers?q=abc')}`);
  });

  it('finds customers by name, customer number and external id, case-insensitively, with % and _ taken literally', async () => {
    const user = await registerUser(t.app);
    await createCustomer(t.app, user.company, { name: 'Müller & Söhne KG', customer_number: 'K-777', external_id: 'ERP-42' });
    await createCustomer(t.app, user.company, { name: 'Rabatt 100% GmbH', customer_number: 'K-100' });
    await createCustomer(t.app, user.company, { name: 'Schmidt_Bau AG', external_id: 'SAP-9' });
    await createCustomer(t.app, user.company, { name: 'Schmidt Bau AG' });
    const agent = await agentOf(user);
    const names = async (q: string) =>
      listed((await agent.get(`/customers?q=${encodeURIComponent(q)}`).expect(200)).text).map((r) => r.name);
    expect(await names('müller')).toEqual(['Müller &amp; Söhne KG']);
    expect(await names('k-777')).toEqual(['Müller &amp; Söhne KG']);
    expect(await names('erp-4')).toEqual(['Müller &amp; Söhne KG']);
    expect(await names('%')).toEqual(['Rabatt 100% GmbH']);
    expect(await names('t_b')).toEqual(['Schmidt_Bau AG']);
    expect(await names('  schmidt ')).toEqual(['Schmidt Bau AG', 'Schmidt_Bau AG']);
    const none = await agent.get('/customers?q=niemand').expect(200);
    expect(listed(none.text)).toEqual([]);
    expect(none.text).toContain('Kein Kunde passt zu „niemand“.');
    const all = await agent.get('/customers').expect(200);
    expect(listed(all.text)).toHaveLength(4);
    expect(all.text).toContain('4 Kunden');
    expect(all.text).toMatch(/<input id="q" name="q" type="search" value=""/);
    expect((await agent.get('/customers?q=m%C3%BCller').expect(200)).text).toContain('value="müller"');
  });

  it('sorts by each column both ways, marking the sorted column with aria-sort', async () => {
    const user = await registerUser(t.app);
    const invoices = invoiceApi(t.app, user.company);
    const amounts: Record<string, string> = { 'beta GmbH': '300', 'Alpha AG': '100', 'Gamma KG': '200' };
    for (const [name, total] of Object.entries(amounts)) {
      const customer = await createCustomer(t.app, user.company, { name, city: name.slice(0, 1) === 'G' ? 'Aachen' : 'Berlin' });
      await invoices.createOk({
        customer_id: customer.id,
        total,
        invoice_date: '2026-11-01',
        due_date: '2099-01-01',
        'options[autoskip_shipping]': 'true',
      });
    }
    const agent = await agentOf(user);
    const order = async (query: string) => {
      const res = await agent.get(`/customers${query}`).expect(200);
      return { names: listed(res.text).map((r) => r.name.split(' ')[0]), html: res.text };
    };
    const byName = await order('');
    expect(byName.names).toEqual(['Alpha', 'beta', 'Gamma']);
    expect(byName.html).toMatch(/<th scope="col" aria-sort="ascending"><a href="\/customers\?sort=name&dir=desc"/);
    expect(byName.html.match(/aria-sort=/g)).toHaveLength(1);
    expect((await order('?sort=name&dir=desc')).names).toEqual(['Gamma', 'beta', 'Alpha']);
    const byOpen = await order('?sort=open');
    expect(byOpen.names).toEqual(['beta', 'Gamma', 'Alpha']);
    expect(byOpen.html).toMatch(/<th scope="col" class="num" aria-sort="descending"><a href="\/customers\?sort=open&dir=asc"/);
    expect((await order('?sort=open&dir=asc')).names).toEqual(['Alpha', 'Gamma', 'beta']);
    expect((await order('?sort=city&dir=asc')).names).toEqual(['Gamma', 'Alpha', 'beta']);
    // A search keeps the sort: the form carries it.
    expect(byOpen.html).toContain('<input type="hidden" name="sort" value="open" form="customer-search"/>');
  });

  it('pages 50 customers at a time, with links to the neighbouring pages', async () => {
    const user = await registerUser(t.app);
    const customers = api(t.app, user.company);
    for (let n = 1; n <= 53; n++) {
      const name = `Firma ${String(n).padStart(2, '0')}`;
      await customers
        .postForm('/api/v1/customers', {
          name,
          address_line1: name,
          address_line3: 'Weg 1',
          zip: '10115',
          city: 'Berlin',
          country_code: 'DE',
        })
        .expect(201);
    }
    const agent = await agentOf(user);
    const first = await agent.get('/customers').expect(200);
    const firstRows = listed(first.text);
    expect(firstRows).toHaveLength(50);
    expect(firstRows[0].name).toBe('Firma 01');
    expect(first.text).toContain('53 Kunden');
    expect(first.text).toContain('Seite 1 von 2');
    expect(first.text).toContain('<a href="/customers?page=2" rel="next"');
    expect(first.text).not.toContain('rel="prev"');
    const second = await agent.get('/customers?page=2').expect(200);
    expect(listed(second.text).map((r) => r.name)).toEqual(['Firma 51', 'Firma 52', 'Firma 53']);
    expect(second.text).toContain('<a href="/customers" rel="prev"');
    expect(second.text).not.toContain('rel="next"');
    const beyond = await agent.get('/customers?page=7').expect(200);
    expect(listed(beyond.text)).toEqual([]);
    expect(beyond.text).toContain('Diese Seite gibt es nicht mehr.');
  });

  it('refuses a malformed query with a message on the list, never a server error', async () => {
    const user = await registerUser(t.app);
    await createCustomer(t.app, user.company, { name: 'Da AG' });
    const agent = await agentOf(user);
    for (const [query, message] of [
      ['sort=bogus', 'Nach dieser Spalte lässt sich nicht sortieren'],
      ['dir=sideways', 'Die Sortierrichtung ist ungültig'],
      ['page=0', 'Die Seitenzahl ist ungültig'],
      ['page=abc', 'Die Seitenzahl ist ungültig'],
      ['page=99999999999', 'Die Seitenzahl ist ungültig'],
      [`q=${'x'.repeat(101)}`, 'Der Suchbegriff ist ungültig'],
      ['q=a&q=b', 'Der Suchbegriff ist ungültig'],
    ]) {
      const res = await agent.get(`/customers?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.text).toContain(message);
      // The list stands with the defaults in place of the wrong value.
      expect(listed(res.text).map((r) => r.name)).toEqual(['Da AG']);
    }
  });

  it("shows each customer's open and overdue sums and open invoices as the API's invoices add them up", async () => {
    const user = await registerUser(t.app);
    const invoices = invoiceApi(t.app, user.company);
    const a = await createCustomer(t.app, user.company, { name: 'A GmbH' });
    const b = await createCustomer(t.app, user.company, { name: 'B GmbH' });
    await createCustomer(t.app, user.company, { name: 'C GmbH' });
    const sent = (customer: { id: unknown }, total: string, due: string) =>
      invoices.createOk({
        customer_id: customer.id as string,
        total,
        invoice_date: '2019-12-01',
        due_date: due,
        'options[autoskip_shipping]': 'true',
      });
    const overdue = await sent(a, '1190.00', '2020-01-01');
    await sent(a, '100.00', '2099-01-01');
    const writtenOff = await sent(a, '500.00', '2020-01-01');
    await invoices.createOk({ customer_id: a.id as string, total: '7000', invoice_date: '2019-12-01', due_date: '2020-01-01' });
    await invoices.payForm(overdue.id as string, { amount: '90', payment_date: todayIn('Europe/Berlin') }).expect(201);
    await invoices.act(writtenOff.id as string, 'write_off').expect(200);
    await sent(b, '250.50', '2099-01-01');

    const today = todayIn('Europe/Berlin');
    const apiSums = async (customerId: string) => {
      const all = (await invoices.list(`?customer_id=${customerId}&per_page=100`).expect(200)).body.invoices as Array<
        Record<string, string>
      >;
      const open = all.filter((i) => (OPEN_STATUSES as readonly string[]).includes(i.invoice_status));
      const sum = (list: typeof open) => list.reduce((s, i) => s + Number(i.open_amount), 0);
      return { count: open.length, open: sum(open), overdue: sum(open.filter((i) => i.due_date < today)) };
    };
    expect(await apiSums(a.id as string)).toEqual({ count: 2, open: 1200, overdue: 1100 });
    expect(await apiSums(b.id as string)).toEqual({ count: 1, open: 250.5, overdue: 0 });

    const agent = await agentOf(user);
    const rows = listed((await agent.get('/customers').expect(200)).text);
    expect(rows.map(({ name, invoices: n, open, overdue: late }) => [name, n, open, late])).toEqual([
      ['A GmbH', '2', euro('1.200,00'), euro('1.100,00')],
      ['B GmbH', '1', euro('250,50'), euro('0,00')],
      ['C GmbH', '0', euro('0,00'), euro('0,00')],
    ]);
    // The same sums by the other way of reading them (sorted by a sum, all of the company's invoices at once).
    const bySum = listed((await agent.get('/customers?sort=overdue').expect(200)).text);
    expect(bySum.map((r) => [r.name, r.open, r.overdue])).toEqual([
      ['A GmbH', euro('1.200,00'), euro('1.100,00')],
      ['B GmbH', euro('250,50'), euro('0,00')],
      ['C GmbH', euro('0,00'), euro('0,00')],
    ]);
    const page = await agent.get(new URL(a.service_url as string).pathname).expect(200);
    expect(page.text).toMatch(/data-figure="open"[^>]*>1\.200,00\u00a0€ \(2 Rechnungen\)/);
    expect(page.text).toMatch(/data-figure="overdue"[^>]*>1\.100,00\u00a0€ \(1 Rechnung\)/);
  });
});
