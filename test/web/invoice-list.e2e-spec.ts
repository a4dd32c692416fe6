// The invoice list over HTTP (no browser): GET /invoices with each filter, sort and page, bad query
// values as a clear 400 page, another company's customer as the 404 page, and the CSV export (dialect,
// escaping, formula guard, tenancy, the whole list across keyset batches).
import request from 'supertest';
import { createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig, setStatus } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { csrfOf, registerUser, signIn, type WebUser } from './web-support.js';

/** The invoice numbers of the list's rows, in their order. */
const numbers = (html: string) =>
  [...html.matchAll(/<tr data-invoice="[^"]+"><td><a href="\/invoices\/inv-[^"]+">([^<]*)<\/a>/g)].map((m) => m[1]);
const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? '';
/** The rows of a CSV without its BOM and header, split by the delimiter (the test's cells hold no quoted delimiters). */
const csvRows = (text: string, delimiter: string) =>
  text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .slice(1)
    .map((line) => line.split(delimiter));

describe('invoice list (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-invoice-list'), { reset: 'once' });
  let user: WebUser;
  let browser: ReturnType<typeof request.agent>;
  const ids: Record<string, string> = {};
  let muller: Record<string, unknown>;
  let other: WebUser;

  beforeAll(async () => {
    user = await registerUser(t.app, 'Liste GmbH');
    other = await registerUser(t.app, 'Fremd GmbH');
    muller = await createCustomer(t.app, user.company, { name: 'Müller & Söhne GmbH', customer_number: 'K-1' });
    const schmidt = await createCustomer(t.app, user.company, { name: 'Schmidt AG' });
    const evil = await createCustomer(t.app, user.company, { name: '@SUM(1+1);"Quote"', customer_number: '-42' });
    const api = invoiceApi(t.app, user.company);
    const create = async (number: string, customer: Record<string, unknown>, fields: Record<string, string>, status?: string) => {
      const invoice = await api.createOk({
        customer_id: customer.id as string,
        invoice_number: number,
        'options[autoskip_shipping]': 'true',
        ...fields,
      });
      if (status) await setStatus(t.app, invoice.id as string, status);
      ids[number] = invoice.id as string;
    };
    await create('RE-001', muller, { total: '100', invoice_date: '2019-12-10', due_date: '2020-01-10', external_id: 'EXT-A1' });
    await create('RE-002', muller, { total: '250.50', invoice_date: '2026-01-05', due_date: '2099-01-01' });
    await create('RE-003', schmidt, { total: '1190', invoice_date: '2020-01-02', due_date: '2020-02-01' }, 'reminder1_sent');
    await create('RE-004', schmidt, { total: '40', invoice_date: '2020-02-03', due_date: '2020-03-01' }, 'paid');
    await create('RE-005', schmidt, { total: '10', invoice_date: '2020-03-04', due_date: '2020-04-01' }, 'draft');
    await create('=HYPERLINK("x")', evil, { total: '5', invoice_date: '2020-04-05', due_date: '2020-05-01', external_id: '+cmd|x' });
    await create('RE-100%', evil, { total: '7', invoice_date: '2020-05-06', due_date: '2020-06-01' });
    await invoiceApi(t.app, other.company).createOk({
      customer_id: (await createCustomer(t.app, other.company, { name: 'Müller Fremd' })).id as string,
      invoice_number: 'RE-FREMD',
      total: '999',
      invoice_date: '2026-01-01',
      due_date: '2026-02-01',
    });
    browser = request.agent(t.app.getHttpServer());
    await signIn(browser, user.email);
  });

  const list = (query = '') => browser.get(`/invoices${query}`);

  it('sends a signed-out visitor to sign in and back to the list', async () => {
    const res = await t.http.get('/invoices?status=open').expect(303);
    expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent('/invoices?status=open')}`);
    await t.http.get('/invoices/export.csv').expect(303);
  });

  it("lists the company's invoices, newest first, with links, status in words and amounts in the locale", async () => {
    const res = await list().expect(200);
    expect(numbers(res.text)).toEqual(['RE-002', 'RE-100%', '=HYPERLINK(&#34;x&#34;)', 'RE-005', 'RE-004', 'RE-003', 'RE-001']);
    expect(res.text).not.toContain('RE-FREMD');
    expect(res.text).toContain('data-total="7"');
    expect(res.text).toContain('7 Rechnungen');
    expect(res.text).toContain(`href="/invoices/${ids['RE-003']}"`);
    expect(res.text).toContain(`href="/customers/${muller.id as string}">Müller &amp; Söhne GmbH</a>`);
    expect(res.text).toContain('1. Mahnung versendet');
    expect(res.text).toContain('1.190,00\u00a0€');
    expect(res.text).toContain('10.01.2020');
    expect(res.text).toContain('Externe ID EXT-A1');
    expect(res.text).toContain('aria-sort="descending"');
    expect(res.text).toContain('hx-get="/invoices"');
  });

  it.each([
    ['?status=reminder1_sent', ['RE-003']],
    ['?status=draft', ['RE-005']],
    ['?status=open', ['RE-002', 'RE-100%', '=HYPERLINK(&#34;x&#34;)', 'RE-003', 'RE-001']],
    ['?status=overdue', ['RE-100%', '=HYPERLINK(&#34;x&#34;)', 'RE-003', 'RE-001']],
    ['?status=closed', ['RE-004']],
    ['?overdue=1', ['RE-100%', '=HYPERLINK(&#34;x&#34;)', 'RE-003', 'RE-001']],
    ['?overdue=1&status=reminder1_sent', ['RE-003']],
    ['?overdue=1&status=paid', []],
    ['?due_from=2020-02-01&due_to=2020-04-01', ['RE-005', 'RE-004', 'RE-003']],
    ['?due_from=01.05.2020', ['RE-002', 'RE-100%', '=HYPERLINK(&#34;x&#34;)']],
    ['?q=re-00', ['RE-002', 'RE-005', 'RE-004', 'RE-003', 'RE-001']],
    ['?q=ext-a', ['RE-001']],
    ['?q=s%C3%B6hne', ['RE-002', 'RE-001']],
    // The user's % and _ are text, not wildcards.
    ['?q=%25', []],
    ['?q=RE-100%25', ['RE-100%']],
    ['?q=_E', []],
    ['?q=RE-FREMD', []],
    ['?q=&status=&due_from=&due_to=&overdue=0', ['RE-002', 'RE-100%', '=HYPERLINK(&#34;x&#34;)', 'RE-005', 'RE-004', 'RE-003', 'RE-001']],
  ])('filters %s', async (query, expected) => {
    const res = await list(query).expect(200);
    expect(numbers(res.text)).toEqual(expected);
    if (expected.length === 0) expect(res.text).toContain('Keine Rechnungen gefunden.');
  });

  it('filters by customer, naming the customer, and answers a customer of another company with the 404 page', async () => {
    const res = await list(`?customer=${muller.id as string}`).expect(200);
    expect(numbers(res.text)).toEqual(['RE-002', 'RE-001']);
    expect(res.text).toContain('Nur Rechnungen von Müller &amp; Söhne GmbH');
    expect(res.text).toContain(`name="customer" value="${muller.id as string}"`);
    const stranger = request.agent(t.app.getHttpServer());
    await signIn(stranger, other.email);
    const notFound = await stranger.get(`/invoices?customer=${muller.id as string}`).expect(404);
    expect(main(notFound.text)).toContain('Seite nicht gefunden');
    expect(notFound.text).not.toContain('Müller');
    await stranger.get(`/invoices/export.csv?customer=${muller.id as string}`).expect(404);
  });

  const H = '=HYPERLINK(&#34;x&#34;)';
  // Ties (same customer, same status) are in id order, which the test cannot know: each inner list is a set.
  it.each([
    ['number', 'asc', '', [[H], ['RE-001'], ['RE-002'], ['RE-003'], ['RE-004'], ['RE-005'], ['RE-100%']]],
    [
      'customer',
      'asc',
      '&q=re-00',
      [
        ['RE-001', 'RE-002'],
        ['RE-003', 'RE-004', 'RE-005'],
      ],
    ],
    [
      'customer',
      'desc',
      '&q=re-00',
      [
        ['RE-003', 'RE-004', 'RE-005'],
        ['RE-001', 'RE-002'],
      ],
    ],
    ['date', 'asc', '', [['RE-001'], ['RE-003'], ['RE-004'], ['RE-005'], [H], ['RE-100%'], ['RE-002']]],
    ['due_date', 'desc', '', [['RE-002'], ['RE-100%'], [H], ['RE-005'], ['RE-004'], ['RE-003'], ['RE-001']]],
    ['total', 'desc', '', [['RE-003'], ['RE-002'], ['RE-001'], ['RE-004'], ['RE-005'], ['RE-100%'], [H]]],
    ['open_amount', 'asc', '', [[H], ['RE-100%'], ['RE-005'], ['RE-004'], ['RE-001'], ['RE-002'], ['RE-003']]],
    ['status', 'asc', '', [['RE-005'], ['RE-001', 'RE-002', 'RE-100%', H], ['RE-003'], ['RE-004']]],
  ])('sorts by %s %s%s, the header saying so and linking to the other direction', async (sort, dir, filter, groups) => {
    const res = await list(`?sort=${sort}&dir=${dir}${filter}`).expect(200);
    const got = numbers(res.text);
    const sizes = groups.map((g) => g.length);
    const chunks = sizes.map((size, i) =>
      got
        .slice(
          sizes.slice(0, i).reduce((a, b) => a + b, 0),
          undefined,
        )
        .slice(0, size)
        .sort(),
    );
    expect(chunks).toEqual(groups.map((g) => [...g].sort()));
    expect(got).toHaveLength(sizes.reduce((a, b) => a + b, 0));
    const reverse = dir === 'asc' ? 'desc' : 'asc';
    // Newest first is the default order, which the link leaves out.
    const search = sort === 'date' && reverse === 'desc' ? '' : `\\?(q=re-00&)?sort=${sort}&dir=${reverse}`;
    const header = new RegExp(`aria-sort="${dir === 'asc' ? 'ascending' : 'descending'}"><a href="/invoices${search}"`);
    expect(res.text).toMatch(header);
    expect((res.text.match(/aria-sort=/g) ?? []).length).toBe(1);
    // The order travels with the filter form.
    expect(res.text).toContain(`<input type="hidden" name="sort" value="${sort}"/>`);
  });

  it.each([
    ['?status=bogus', 'Diesen Status gibt es nicht.'],
    ['?customer=cus-nonsense', 'Die Kunden-ID ist ungültig.'],
    ['?overdue=yes', '„Nur überfällige“ ist entweder gesetzt (1) oder nicht.'],
    ['?due_from=2026-02-31', '„Fällig ab“ ist kein gültiges Datum (TT.MM.JJJJ).'],
    ['?due_to=morgen', '„Fällig bis“ ist kein gültiges Datum (TT.MM.JJJJ).'],
    ['?due_from=2026-03-01&due_to=2026-02-01', '„Fällig ab“ liegt nach „Fällig bis“.'],
    [`?q=${'x'.repeat(101)}`, 'Der Suchbegriff ist zu lang (höchstens 100 Zeichen).'],
    ['?q=%00', 'Der Suchbegriff enthält Steuerzeichen. Bitte geben Sie ihn neu ein.'],
    ['?q=RE%00-001&status=open', 'Der Suchbegriff enthält Steuerzeichen. Bitte geben Sie ihn neu ein.'],
    ['?sort=name', 'Nach dieser Spalte kann nicht sortiert werden.'],
    ['?dir=up', 'Die Sortierrichtung ist aufsteigend (asc) oder absteigend (desc).'],
    ['?page=0', 'Die Seitenzahl ist eine ganze Zahl ab 1.'],
    ['?page=-1', 'Die Seitenzahl ist eine ganze Zahl ab 1.'],
    ['?page=2.5', 'Die Seitenzahl ist eine ganze Zahl ab 1.'],
    ['?page=99999999999', 'Die Seitenzahl ist eine ganze Zahl ab 1.'],
    ['?status=open&status=paid', 'Der Filter „status“ ist mehrfach angegeben.'],
  ])('answers %s with a 400 page that names the problem, for the list and the export', async (query, message) => {
    const res = await list(query).expect(400);
    expect(res.text).toMatch(/<div class="error" role="alert" id="list-errors">/);
    expect(res.text).toContain(message);
    expect(numbers(res.text)).toEqual([]);
    const csv = await browser.get(`/invoices/export.csv${query}`).expect(400);
    expect(csv.headers['content-type']).toMatch(/text\/html/);
    expect(csv.text).toContain(message);
    // Nothing of a refused search comes back into the page (its search field is empty).
    expect(res.text).not.toContain('\u0000');
  });

  it('exports the filtered, sorted list as CSV for German Excel, with formula cells defused', async () => {
    const res = await browser.get('/invoices/export.csv?status=open&sort=total&dir=asc').expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="rechnungen-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.text;
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Rechnungsnummer;Externe ID;Kunde;Kundennummer;Rechnungsdatum;Fälligkeitsdatum;Gesamtbetrag;Offener Betrag;Status;Statuscode;Rechnungs-ID;Kunden-ID',
    );
    expect(lines[1]).toBe(
      `"'=HYPERLINK(""x"")";'+cmd|x;"'@SUM(1+1);""Quote""";'-42;2020-04-05;2020-05-01;5,00;5,00;Versendet;sent;${ids['=HYPERLINK("x")']};${lines[1].split(';').pop()}`,
    );
    expect(lines.slice(1, -1).map((l) => l.split(';')[0])).toEqual([`"'=HYPERLINK(""x"")"`, 'RE-100%', 'RE-001', 'RE-002', 'RE-003']);
    expect(lines[3]).toContain(`;2019-12-10;2020-01-10;100,00;100,00;Versendet;sent;${ids['RE-001']};${muller.id as string}`);
    expect(lines[5]).toContain(';1190,00;1190,00;1. Mahnung versendet;reminder1_sent;');
    expect(lines.at(-1)).toBe('');
    // The list shows the same invoices in the same order.
    const page = await list('?status=open&sort=total&dir=asc').expect(200);
    expect(numbers(page.text)).toEqual(['=HYPERLINK(&#34;x&#34;)', 'RE-100%', 'RE-001', 'RE-002', 'RE-003']);
    expect(page.text).toContain('href="/invoices/export.csv?status=open&sort=total&dir=asc"');
  });

  it("exports only the company's own invoices", async () => {
    const stranger = request.agent(t.app.getHttpServer());
    await signIn(stranger, other.email);
    const res = await stranger.get('/invoices/export.csv').expect(200);
    const rows = csvRows(res.text, ';');
    expect(rows.map((r) => r[0])).toEqual(['RE-FREMD']);
    const mine = csvRows((await browser.get('/invoices/export.csv').expect(200)).text, ';');
    expect(mine).toHaveLength(7);
    expect(mine.map((r) => r[0])).not.toContain('RE-FREMD');
  });

  it('pages by 50 with the count, and exports the whole list across keyset batches of 1,000', async () => {
    const many = await registerUser(t.app, 'Viele GmbH');
    const customer = await createCustomer(t.app, many.company, { name: 'Großkunde' });
    // 2,105 invoices, one per day: the newest is N-2105.
    await t.db.query(
      `INSERT INTO invoices (company_id, id, customer_id, invoice_number, status, original_total, open_amount, invoice_date, due_date, source)
       SELECT $1, gen_random_uuid(), $2, 'N-' || lpad(n::text, 4, '0'), 'sent', 10, 10, date '2015-01-01' + n, date '2015-01-15' + n, 'API'
         FROM generate_series(1, 2105) n`,
      [many.company.id.slice(4), (customer.id as string).slice(4)],
    );
    const agent = request.agent(t.app.getHttpServer());
    await signIn(agent, many.email);
    const first = await agent.get('/invoices').expect(200);
    expect(numbers(first.text)).toHaveLength(50);
    expect(numbers(first.text)[0]).toBe('N-2105');
    expect(first.text).toContain('2.105 Rechnungen');
    expect(first.text).toContain('Seite 1 von 43');
    expect(first.text).toContain('<a href="/invoices?page=2" rel="next"');
    expect(first.text).not.toContain('rel="prev"');
    const second = await agent.get('/invoices?page=2').expect(200);
    expect(numbers(second.text)[0]).toBe('N-2055');
    expect(second.text).toContain('<a href="/invoices" rel="prev"');
    const last = await agent.get('/invoices?page=43').expect(200);
    expect(numbers(last.text)).toEqual(['N-0005', 'N-0004', 'N-0003', 'N-0002', 'N-0001']);
    expect(last.text).toContain('Seite 43 von 43');
    expect(last.text).not.toContain('rel="next"');
    const beyond = await agent.get('/invoices?page=44').expect(200);
    expect(beyond.text).toContain('Diese Seite ist leer.');
    expect(beyond.text).toContain('<a href="/invoices"');
    // Page links keep the filter and the order; a sort header starts again at page 1.
    const filtered = await agent.get('/invoices?q=N-1&sort=number&dir=asc&page=2').expect(200);
    expect(numbers(filtered.text)[0]).toBe('N-1050');
    expect(filtered.text).toContain('<a href="/invoices?q=N-1&sort=number&dir=asc&page=3" rel="next"');
    expect(filtered.text).toContain('<a href="/invoices?q=N-1&sort=total&dir=asc"');

    const csv = await agent.get('/invoices/export.csv').expect(200);
    const rows = csvRows(csv.text, ';');
    expect(rows).toHaveLength(2105);
    expect(new Set(rows.map((r) => r[10])).size).toBe(2105);
    expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 2105 }, (_, i) => `N-${String(2105 - i).padStart(4, '0')}`));
    const byNumber = csvRows((await agent.get('/invoices/export.csv?sort=number&dir=desc&q=n-1').expect(200)).text, ';');
    expect(byNumber.map((r) => r[0])).toEqual(Array.from({ length: 1000 }, (_, i) => `N-${1999 - i}`));
  });

  it('exports in English with commas and decimal points', async () => {
    const before = await list().expect(200);
    await browser
      .post('/language')
      .type('form')
      .send({ _csrf: csrfOf(before.text), locale: 'en', back: '/invoices' })
      .expect(303);
    try {
      const page = await list('?status=reminder1_sent').expect(200);
      expect(page.text).toContain('1 invoice');
      expect(page.text).toContain('€1,190.00');
      expect(page.text).toContain('Reminder 1 sent');
      const res = await browser.get('/invoices/export.csv?status=reminder1_sent').expect(200);
      expect(res.headers['content-disposition']).toMatch(/filename="invoices-\d{4}-\d{2}-\d{2}\.csv"/);
      const [header, row] = res.text.slice(1).split('\r\n');
      expect(header).toBe(
        'Invoice number,External id,Customer,Customer number,Invoice date,Due date,Total,Open amount,Status,Status code,Invoice id,Customer id',
      );
      expect(row).toMatch(/^RE-003,,Schmidt AG,,2020-01-02,2020-02-01,1190\.00,1190\.00,Reminder 1 sent,reminder1_sent,inv-/);
      const bad = await list('?page=x').expect(400);
      expect(bad.text).toContain('The page number is a whole number from 1.');
    } finally {
      const again = await list().expect(200);
      await browser
        .post('/language')
        .type('form')
        .send({ _csrf: csrfOf(again.text), locale: 'de', back: '/invoices' })
        .expect(303);
    }
  });
});
