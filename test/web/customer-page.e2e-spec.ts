// The customer page over HTTP (no browser): its heading and newest invoices, the settings form (saved,
// refused as the API refuses, CSRF), tenancy, and escaping of a customer named <script>alert(1)</script>.
import { api, createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { agentOf as signedIn, listed } from './customers-support.js';
import { csrfOf, registerUser, type WebUser } from './web-support.js';

describe('customer page (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-customer-page'));
  const agentOf = (user: WebUser) => signedIn(t.app, user);

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
