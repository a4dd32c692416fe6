// The customer pages over HTTP (no browser): search, sort and pagination of the list, its sums against the
// API's invoices, the customer page's newest invoices, the settings form (saved, refused, CSRF), tenancy
// and escaping.
import request from 'supertest';
import { todayIn } from '../../src/common/calendar-date.js';
import { OPEN_STATUSES } from '../../src/invoices/invoice-status.js';
import { api, createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { csrfOf, registerUser, signIn, type WebUser } from './web-support.js';

interface ListedRow {
  id: string;
  name: string;
  invoices: string;
  open: string;
  overdue: string;
}

/** The rows of the customer list as the page shows them. */
function listed(html: string): ListedRow[] {
  const cell = (body: string, figure: string) => new RegExp(`data-figure="${figure}"[^>]*>([^<]*)<`).exec(body)?.[1] ?? '';
  return [...html.matchAll(/<tr data-customer="([^"]+)">([\s\S]*?)<\/tr>/g)].map(([, id, body]) => ({
    id,
    name: /<a [^>]*>([^<]*)<\/a>/.exec(body)?.[1] ?? '',
    invoices: cell(body, 'invoices'),
    open: cell(body, 'open'),
    overdue: cell(body, 'overdue'),
  }));
}

const euro = (amount: string) => `${amount}\u00a0€`;

describe('customer pages (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-customers'));
  const agentOf = async (user: WebUser) => {
    const agent = request.agent(t.app.getHttpServer());
    await signIn(agent, user.email);
    return agent;
  };

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

  it('shows the customer by name with its newest 100 invoices and a link to all of them', async () => {
    const user = await registerUser(t.app);
    const customer = await createCustomer(t.app, user.company, { name: 'Kunde AG', customer_number: 'K-1' });
    const invoices = invoiceApi(t.app, user.company);
    const old = await invoices.createOk({
      customer_id: customer.id,
      invoice_number: 'RE-ALT',
      total: '10',
      invoice_date: '2025-01-01',
      due_date: '2025-01-15',
    });
    await invoices.createOk({
      customer_id: customer.id,
      invoice_number: 'RE-NEU',
      total: '20',
      invoice_date: '2026-11-20',
      due_date: '2026-12-04',
    });
    // 99 more between the two, as copies of the old one with their own ids, numbers and dates.
    await t.db.query(
      `INSERT INTO invoices SELECT (jsonb_populate_record(i, jsonb_build_object('id', gen_random_uuid(), 'external_id', null,
              'invoice_number', 'RE-' || n, 'invoice_date', date '2026-01-01' + n))).* FROM invoices i, generate_series(1, 99) n WHERE i.id = $1`,
      [(old.id as string).slice(4)],
    );
    const agent = await agentOf(user);
    const page = await agent.get(`/customers/${customer.id as string}`).expect(200);
    expect(/<h1>([^<]*)<\/h1>/.exec(page.text)?.[1]).toBe('Kunde AG');
    expect(page.text).toContain('<title>Kunde AG · Forderungen</title>');
    expect(page.text).toContain('Kunde · K-1');
    const numbers = [...page.text.matchAll(/<a href="\/invoices\/inv-[^"]+">([^<]*)<\/a>/g)].map((m) => m[1]);
    expect(numbers).toHaveLength(100);
    expect(numbers.slice(0, 3)).toEqual(['RE-NEU', 'RE-99', 'RE-98']);
    expect(numbers).not.toContain('RE-ALT');
    expect(page.text).toContain('Die neuesten 100 von 101 Rechnungen.');
    expect(page.text).toContain(`<a href="/invoices?customer=${customer.id as string}">Alle Rechnungen dieses Kunden</a>`);
  });

  it('saves the reminder stop and the shipping mode through the API’s rules, and says so once', async () => {
    const user = await registerUser(t.app);
    const customer = await createCustomer(t.app, user.company, { name: 'Kunde AG' });
    const path = `/customers/${customer.id as string}`;
    const stored = async () =>
      (
        await api(t.app, user.company)
          .get(`/api/v1/customers/${customer.id as string}`)
          .expect(200)
      ).body;
    const agent = await agentOf(user);
    const page = await agent.get(path).expect(200);
    expect(page.text).toContain('<option value="" selected>Einstellung der Firma</option>');
    const saved = await agent
      .post(`${path}/settings`)
      .type('form')
      .send({ _csrf: csrfOf(page.text), stop_automatic_reminders: 'true', shipping_mode: 'post' })
      .expect(303);
    expect(saved.headers.location).toBe(path);
    expect(await stored()).toMatchObject({ stop_automatic_reminders: true, shipping_mode: 'post' });
    const after = await agent.get(path).expect(200);
    expect(after.text).toContain('Die Einstellungen wurden gespeichert.');
    expect(after.text).toMatch(/id="stop_automatic_reminders" name="stop_automatic_reminders" value="true" checked/);
    expect(after.text).toContain('<option value="post" selected>Post</option>');
    expect((await agent.get(path).expect(200)).text).not.toContain('Die Einstellungen wurden gespeichert.');

    // Unchecked (the box sends nothing) and the company's setting (""): both cleared.
    await agent
      .post(`${path}/settings`)
      .type('form')
      .send({ _csrf: csrfOf(after.text), shipping_mode: '' })
      .expect(303);
    expect(await stored()).toMatchObject({ stop_automatic_reminders: false, shipping_mode: null });
  });

  it('refuses a value the API refuses, beside its field, and changes nothing', async () => {
    const user = await registerUser(t.app);
    const customer = await createCustomer(t.app, user.company, { name: 'Kunde AG', shipping_mode: 'email' });
    const path = `/customers/${customer.id as string}`;
    const customers = api(t.app, user.company);
    const agent = await agentOf(user);
    const csrf = csrfOf((await agent.get(path).expect(200)).text);
    for (const [field, body] of [
      ['shipping_mode', { stop_automatic_reminders: 'true', shipping_mode: 'fax' }],
      ['stop_automatic_reminders', { stop_automatic_reminders: 'vielleicht', shipping_mode: 'post' }],
    ] as const) {
      // The API refuses the same values.
      await customers.patchForm(`/api/v1/customers/${customer.id as string}`, body).expect(422);
      const res = await agent
        .post(`${path}/settings`)
        .type('form')
        .send({ _csrf: csrf, ...body })
        .expect(422);
      expect(res.text).toContain('Die Einstellungen wurden nicht gespeichert.');
      expect(res.text).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true" aria-describedby="[a-z-]+ ${field}-error"`));
      expect(res.text).toMatch(new RegExp(`<p id="${field}-error" class="field-error">[^<]+</p>`));
      expect(res.text.match(/class="field-error"/g)).toHaveLength(1);
    }
    expect((await customers.get(`/api/v1/customers/${customer.id as string}`).expect(200)).body).toMatchObject({
      stop_automatic_reminders: false,
      shipping_mode: 'email',
    });
  });

  it('refuses the settings form without a valid CSRF token, and another company’s customer is the 404 page', async () => {
    const owner = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const customer = await createCustomer(t.app, owner.company, { name: 'Geheim KG' });
    const path = `/customers/${customer.id as string}`;
    const ownerAgent = await agentOf(owner);
    await ownerAgent.get(path).expect(200);
    const forged = await ownerAgent.post(`${path}/settings`).type('form').send({ _csrf: 'forged', stop_automatic_reminders: 'true' });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('Anfrage abgelehnt');

    const strangerAgent = await agentOf(stranger);
    const list = await strangerAgent.get('/customers?q=Geheim').expect(200);
    expect(listed(list.text)).toEqual([]);
    expect(list.text).not.toContain(customer.id as string);
    const foreign = await strangerAgent.get(path).expect(404);
    expect(foreign.text).toContain('Seite nicht gefunden');
    expect(foreign.text).not.toContain('Geheim KG');
    const csrf = csrfOf((await strangerAgent.get('/customers').expect(200)).text);
    const post = await strangerAgent
      .post(`${path}/settings`)
      .type('form')
      .send({ _csrf: csrf, stop_automatic_reminders: 'true', shipping_mode: 'post' });
    expect(post.status).toBe(404);
    await strangerAgent.post('/customers/cus-nonsense/settings').type('form').send({ _csrf: csrf }).expect(404);
    expect(
      (
        await api(t.app, owner.company)
          .get(`/api/v1/customers/${customer.id as string}`)
          .expect(200)
      ).body,
    ).toMatchObject({
      stop_automatic_reminders: false,
      shipping_mode: null,
    });
  });

  it('shows a customer named <script>alert(1)</script> as text in the list, the search and its page', async () => {
    const user = await registerUser(t.app);
    const evil = '<script>alert(1)</script>';
    const customer = await createCustomer(t.app, user.company, { name: evil, customer_number: '"><img src=x onerror=alert(2)>' });
    const agent = await agentOf(user);
    const escaped = '&lt;script>alert(1)&lt;/script>';
    for (const res of [
      await agent.get('/customers').expect(200),
      await agent.get(`/customers?q=${encodeURIComponent(evil)}`).expect(200),
      await agent.get(`/customers/${customer.id as string}`).expect(200),
    ]) {
      // Inside a quoted attribute value markup is text (only its quote must be escaped); outside, none at all.
      const outsideAttributes = res.text.replace(/="[^"]*"/g, '=""');
      expect(outsideAttributes).not.toContain(evil);
      expect(outsideAttributes).not.toContain('<img');
      expect(res.text).toContain(escaped);
    }
    const search = await agent.get(`/customers?q=${encodeURIComponent(`"${evil}`)}`).expect(200);
    expect(search.text).toContain(`<input id="q" name="q" type="search" value="&#34;${evil}"`);
    expect(search.text).toContain(`„&#34;${escaped}“`);
    expect(listed((await agent.get(`/customers?q=${encodeURIComponent(evil)}`).expect(200)).text).map((r) => r.name)).toEqual([escaped]);
  });
});
