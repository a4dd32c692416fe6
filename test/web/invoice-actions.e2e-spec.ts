// The invoice page over HTTP (no browser): payments added and deleted and bad input, the CSRF token
// required, documents and letters through the session, another company's = 404. The status actions and
// the dunning block: invoice-actions.transitions.e2e-spec.ts.
import request from 'supertest';
import { createCustomer } from '../support/factories.js';
import { type InvoiceApi, invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { useTestApp } from '../support/use-test-app.js';
import { csrfOf, registerUser, signIn, type WebUser } from './web-support.js';

type Agent = ReturnType<typeof request.agent>;

describe('invoice page: actions and payments (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-invoice-actions'));
  let user: WebUser;
  let api: InvoiceApi;
  let browser: Agent;
  let customerId: string;

  beforeEach(async () => {
    user = await registerUser(t.app, 'Eigene GmbH');
    api = invoiceApi(t.app, user.company);
    customerId = (await createCustomer(t.app, user.company, { name: 'Kunde & Söhne' })).id;
    browser = request.agent(t.app.getHttpServer());
    await signIn(browser, user.email);
  });

  const newInvoice = (fields: Record<string, string> = {}) =>
    api.createOk({
      customer_id: customerId,
      invoice_number: 'RE-1',
      total: '1190.00',
      invoice_date: '2026-11-10',
      due_date: '2026-11-24',
      shipping_mode: 'skip_shipping',
      ...fields,
    });
  const wire = async (id: string) => (await api.invoice(id).expect(200)).body.invoice;
  /** POSTs a form of the page at `formPage` (with that page's CSRF token) to `action`. */
  const post = async (formPage: string, action: string, fields: Record<string, string> = {}) => {
    const page = await browser.get(formPage).expect(200);
    return browser
      .post(action)
      .type('form')
      .send({ _csrf: csrfOf(page.text), ...fields });
  };
  const follow = async (res: request.Response, path: string) => {
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(path);
    return browser.get(path).expect(200);
  };

  it('shows amounts as the API states them, the documents through the session, and offers the actions the status allows', async () => {
    const attachment = await makePdf('Anlage');
    const invoice = await api.createOk(
      {
        customer_id: customerId,
        invoice_number: 'RE-2',
        total: '1190.00',
        invoice_date: '2026-11-10',
        due_date: '2026-11-24',
        shipping_mode: 'skip_shipping',
      },
      { invoice_attachment: attachment },
    );
    const path = `/invoices/${invoice.id}`;
    const page = await browser.get(path).expect(200);
    expect(page.text).toContain('data-amount="open">1.190,00\u00a0€');
    expect(page.text).toContain('Kunde &amp; Söhne');
    // A draft: release, block, mark as duplicate, archive — not write off or hand to collection.
    const offered = [...page.text.matchAll(/data-action="([a-z_]+)"/g)].map((m) => m[1]);
    expect(offered.sort()).toEqual(['archive', 'block', 'mark_duplicate', 'release']);
    const pdf = await browser.get(`${path}/pdf`).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="RE-2.pdf"/);
    expect(pdf.headers['content-security-policy']).toBe('sandbox');
    const inline = await browser.get(`${path}/attachment?inline=true`).expect(200);
    expect(inline.headers['content-disposition']).toMatch(/^inline; filename="RE-2-attachment.pdf"/);
    expect(Buffer.compare(inline.body as Buffer, attachment)).toBe(0);
    // Signed out, the document is not served: the way to sign in instead.
    await t.http.get(`${path}/pdf`).expect(303);
  });

  it('answers another company’s invoice, its documents, confirmations and payments with the 404 page and changes nothing', async () => {
    const invoice = await newInvoice();
    await api.payForm(invoice.id, { amount: '100' }).expect(201);
    const payment = (await wire(invoice.id)).payments[0].id as string;
    const stranger = request.agent(t.app.getHttpServer());
    await signIn(stranger, (await registerUser(t.app, 'Fremde GmbH')).email);
    const dashboard = await stranger.get('/dashboard').expect(200);
    const csrf = csrfOf(dashboard.text);
    const base = `/invoices/${invoice.id}`;
    for (const path of [base, `${base}/pdf`, `${base}/confirm/write_off`, `${base}/payments/${payment}/delete`]) {
      const res = await stranger.get(path).expect(404);
      expect(res.text).toContain('Seite nicht gefunden');
      expect(res.text).not.toContain('RE-1');
    }
    await stranger.post(`${base}/confirm/archive`).type('form').send({ _csrf: csrf }).expect(404);
    await stranger.post(`${base}/payments`).type('form').send({ _csrf: csrf, amount: '5' }).expect(404);
    await stranger.post(`${base}/payments/${payment}/delete`).type('form').send({ _csrf: csrf }).expect(404);
    const after = await wire(invoice.id);
    expect(after).toMatchObject({ invoice_status: 'draft', open_amount: '1090.0' });
    expect(after.payments).toHaveLength(1);
    // An unknown action and a malformed id are the 404 page too.
    await browser.get(`${base}/confirm/explode`).expect(404);
    await browser.get('/invoices/inv-nonsense/confirm/archive').expect(404);
  });

  it('adds a payment through the API’s service and shows the notice once', async () => {
    const invoice = await newInvoice();
    const path = `/invoices/${invoice.id}`;
    const res = await post(path, `${path}/payments`, {
      amount: '190,50',
      payment_date: '2026-11-20',
      external_id: 'KA-77',
      note: 'Teilzahlung',
    });
    const page = await follow(res, path);
    expect(page.text).toContain('Die Zahlung über 190,50\u00a0€ wurde erfasst.');
    expect(page.text).toContain('data-amount="open">999,50\u00a0€');
    const after = await wire(invoice.id);
    expect(after.payments).toEqual([
      expect.objectContaining({ amount: '190.5', payment_date: '2026-11-20', external_id: 'KA-77', note: 'Teilzahlung' }),
    ]);
    const events = (await api.events(invoice.id).expect(200)).body.events;
    expect(events.at(-1)).toMatchObject({ kind: 'payment_recorded', actor: { type: 'user' } });
    // The notice is a flash: the next view of the page no longer shows it.
    expect((await browser.get(path).expect(200)).text).not.toContain('wurde erfasst');
  });

  it('refuses bad payment input beside the field, keeps the input, and records nothing', async () => {
    const invoice = await newInvoice();
    const path = `/invoices/${invoice.id}`;
    const res = await post(path, `${path}/payments`, { amount: 'zwölf', payment_date: '2026-13-45', note: 'bleibt <stehen>' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Bitte prüfen Sie die Eingaben.');
    expect(res.text).toMatch(/id="f-amount-error"[^>]*>Bitte einen Betrag größer als 0 angeben/);
    expect(res.text).toMatch(/id="f-payment_date-error"/);
    expect(res.text).toContain('value="zwölf"');
    expect(res.text).toContain('>bleibt &lt;stehen');
    const negative = await post(path, `${path}/payments`, { amount: '-5' });
    expect(negative.status).toBe(422);
    expect((await wire(invoice.id)).payments).toEqual([]);
  });

  it('deletes a payment after a confirmation that names how far the open amount goes back up', async () => {
    const invoice = await newInvoice();
    await api.payForm(invoice.id, { amount: '1190', payment_date: '2026-11-20' }).expect(201);
    expect((await wire(invoice.id)).invoice_status).toBe('paid');
    const payment = (await wire(invoice.id)).payments[0].id as string;
    const path = `/invoices/${invoice.id}`;
    const confirm = await browser.get(`${path}/payments/${payment}/delete`).expect(200);
    expect(confirm.text).toContain('Der offene Betrag steigt dadurch um 1.190,00\u00a0€ auf 1.190,00\u00a0€.');
    const page = await follow(await post(`${path}/payments/${payment}/delete`, `${path}/payments/${payment}/delete`), path);
    expect(page.text).toContain('Die Zahlung über 1.190,00\u00a0€ wurde gelöscht.');
    const after = await wire(invoice.id);
    expect(after).toMatchObject({ payments: [], open_amount: '1190.0', invoice_status: 'draft' });
    // The timeline names the reasons in German: the status went back because the payment was deleted.
    expect(page.text).toContain('Zahlung gelöscht');
    expect(page.text).not.toContain('payment deleted');
  });

  it('refuses every form without the CSRF token and changes nothing', async () => {
    const invoice = await newInvoice();
    await api.payForm(invoice.id, { amount: '10' }).expect(201);
    const payment = (await wire(invoice.id)).payments[0].id as string;
    const base = `/invoices/${invoice.id}`;
    for (const [path, fields] of [
      [`${base}/confirm/archive`, {}],
      [`${base}/confirm/block`, { dunning_block_reason: 'Streit' }],
      [`${base}/payments`, { amount: '5' }],
      [`${base}/payments/${payment}/delete`, {}],
    ] as const) {
      const res = await browser
        .post(path)
        .type('form')
        .send({ ...fields, _csrf: 'forged' });
      expect(res.status).toBe(403);
      expect(res.text).toContain('Anfrage abgelehnt');
    }
    expect(await wire(invoice.id)).toMatchObject({ invoice_status: 'draft', dunning_block: null, payments: [expect.anything()] });
  });

  it('lists reminders with a link to their letter served through the session', async () => {
    const invoice = await newInvoice();
    const [{ id }] = await t.db.query(
      `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, fees, dispatched_at)
       VALUES ($1, gen_random_uuid(), $2, 1, '2026-12-07', 5, now()) RETURNING id`,
      [user.company.id.slice(4), invoice.id.slice(4)],
    );
    const path = `/invoices/${invoice.id}`;
    const page = await browser.get(path).expect(200);
    const letter = `${path}/reminders/rem-${id}/letter`;
    expect(page.text).toContain(`href="${letter}?inline=true"`);
    const pdf = await browser.get(`${letter}?inline=true`).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^inline;/);
    await browser.get(`${path}/reminders/rem-00000000-0000-4000-8000-000000000000/letter`).expect(404);
  });
});
