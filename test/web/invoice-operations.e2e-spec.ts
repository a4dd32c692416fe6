// The invoice page's operations over HTTP (no browser): edit through PATCH's service, confirm a letter
// posted by hand (invoice and reminder), ship a reminder again, the statement of claim; refusals change
// nothing, the CSRF token is required, another company's invoice is the 404 page, and a member may do all.
import request from 'supertest';
import { createCustomer } from '../support/factories.js';
import { type InvoiceApi, invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { addUser } from './roles-support.js';
import { csrfOf, registerUser, signIn, type WebUser } from './web-support.js';

type Agent = ReturnType<typeof request.agent>;

describe('invoice page: edit and shipping operations (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-invoice-operations'));
  let user: WebUser;
  let api: InvoiceApi;
  let browser: Agent;
  let customerId: string;

  beforeEach(async () => {
    user = await registerUser(t.app, 'Eigene GmbH');
    api = invoiceApi(t.app, user.company);
    customerId = (await createCustomer(t.app, user.company, { name: 'Kunde AG' })).id;
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
  const uuid = (publicId: string) => publicId.slice(publicId.indexOf('-') + 1);
  const setStatus = (id: string, status: string) => t.db.query(`UPDATE invoices SET status = $2 WHERE id = $1`, [uuid(id), status]);
  /** An issued reminder (stage 1) of an invoice made ready for it. */
  const issuedReminder = async (id: string): Promise<string> => {
    await setStatus(id, 'ready_for_reminder1');
    const [{ id: reminderId }] = await t.db.query(
      `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, fees, dispatched_at)
       VALUES ($1, gen_random_uuid(), $2, 1, '2026-12-07', 0, now()) RETURNING id`,
      [uuid(user.company.id), uuid(id)],
    );
    return `rem-${reminderId as string}`;
  };
  /** POSTs a form of the page at `formPage` (with that page's CSRF token) to `action`. */
  const post = async (formPage: string, action: string, fields: Record<string, string> = {}, agent = browser) => {
    const page = await agent.get(formPage).expect(200);
    return agent
      .post(action)
      .type('form')
      .send({ _csrf: csrfOf(page.text), ...fields });
  };
  const follow = async (res: request.Response, path: string, agent = browser) => {
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(path);
    return agent.get(path).expect(200);
  };
  const lastEvent = async (id: string) => (await api.events(id).expect(200)).body.events.at(-1);

  it('edits a draft through PATCH’s service: only the changed fields, recorded as the user’s change', async () => {
    const invoice = await newInvoice();
    const path = `/invoices/${invoice.id}`;
    expect((await browser.get(path).expect(200)).text).toContain(`href="${path}/edit" data-operation="edit"`);
    const form = await browser.get(`${path}/edit`).expect(200);
    expect(form.text).toContain('value="1190,00"');
    expect(form.text).not.toContain('id="locked"');
    const res = await post(`${path}/edit`, `${path}/edit`, {
      invoice_number: 'RE-1-neu',
      additional_number: '',
      external_id: '',
      invoice_date: '2026-11-10',
      due_date: '2026-12-15',
      total: '1190,00',
    });
    const page = await follow(res, path);
    expect(page.text).toContain('Die Änderungen wurden gespeichert.');
    expect(page.text).toContain('15.12.2026');
    expect(await wire(invoice.id)).toMatchObject({ invoice_number: 'RE-1-neu', due_date: '2026-12-15', total: '1190.0' });
    expect(await lastEvent(invoice.id)).toMatchObject({ kind: 'updated', actor: { type: 'user' } });
    // The form sent back as it is: nothing to save, no event.
    const again = await browser.get(`${path}/edit`).expect(200);
    const values = Object.fromEntries([...again.text.matchAll(/name="([a-z_]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    expect((await follow(await post(`${path}/edit`, `${path}/edit`, values), path)).text).toContain('Sie haben nichts geändert.');
    expect((await api.events(invoice.id).expect(200)).body.events.filter((e: { kind: string }) => e.kind === 'updated')).toHaveLength(1);
  });

  it('shows only the fields the status still allows; errors beside the field and refusals change nothing', async () => {
    const invoice = await newInvoice();
    await api.act(invoice.id, 'release').expect((res) => expect(res.status).toBeLessThan(300));
    expect((await wire(invoice.id)).invoice_status).toBe('sent');
    const path = `/invoices/${invoice.id}`;
    const form = await browser.get(`${path}/edit`).expect(200);
    expect(form.text).toContain('name="due_date"');
    expect(form.text).not.toContain('name="total"');
    expect(form.text).not.toContain('name="invoice_date"');
    expect(form.text).toMatch(/data-locked="total"[^>]*>1\.190,00\u00a0€/);

    const early = await post(`${path}/edit`, `${path}/edit`, { due_date: '2026-11-01', invoice_number: 'RE-X' });
    expect(early.status).toBe(422);
    expect(early.text).toMatch(/id="f-due_date-error"[^>]*>Bitte ein gültiges Datum angeben, nicht vor dem Rechnungsdatum/);
    expect(early.text).toContain('value="RE-X"');
    // A field the status no longer allows (a form opened before the release): the service names it.
    const total = await post(`${path}/edit`, `${path}/edit`, { total: '100,00' });
    expect(total.status).toBe(409);
    expect(total.text).toContain('data-code="invoice.not_editable"');
    expect(total.text).toContain('Die Aktion wurde abgelehnt; nichts wurde geändert.');
    expect(await wire(invoice.id)).toMatchObject({ invoice_number: 'RE-1', due_date: '2026-11-24', total: '1190.0' });
  });

  it('confirms an invoice letter posted by hand, offered only while it waits; a second confirmation is refused', async () => {
    const invoice = await newInvoice({ shipping_mode: 'manual_shipping' });
    const path = `/invoices/${invoice.id}`;
    expect((await browser.get(path).expect(200)).text).not.toContain('data-operation="confirm_shipping"');
    // Released from the page: the letter waits for the user's confirmation, recorded as theirs.
    await follow(await post(`${path}/confirm/release`, `${path}/confirm/release`), path);
    expect((await wire(invoice.id)).invoice_status).toBe('draft');
    expect((await browser.get(path).expect(200)).text).toContain(`href="${path}/confirm_shipping" data-operation="confirm_shipping"`);
    const confirm = await browser.get(`${path}/confirm_shipping`).expect(200);
    expect(confirm.text).toContain('selbst gedruckt und versandt');
    expect(confirm.text).toContain(`href="${path}/letter?inline=true"`);
    expect((await browser.get(`${path}/letter`).expect(200)).headers['content-type']).toBe('application/pdf');
    const page = await follow(await post(`${path}/confirm_shipping`, `${path}/confirm_shipping`), path);
    expect(page.text).toContain('Der Versand wurde bestätigt.');
    expect((await wire(invoice.id)).invoice_status).toBe('sent');
    expect(await lastEvent(invoice.id)).toMatchObject({ kind: 'status_changed', to_status: 'sent', actor: { type: 'user' } });

    const unavailable = await browser.get(`${path}/confirm_shipping`).expect(200);
    expect(unavailable.text).toContain('Dafür wartet im Moment nichts');
    const dashboard = await browser.get('/dashboard').expect(200);
    const again = await browser
      .post(`${path}/confirm_shipping`)
      .type('form')
      .send({ _csrf: csrfOf(dashboard.text) });
    expect(again.status).toBe(409);
    expect(again.text).toContain('data-code="shipping.nothing_to_confirm"');
    expect((await wire(invoice.id)).invoice_status).toBe('sent');
  });

  it('confirms a reminder posted by hand', async () => {
    const invoice = await newInvoice({ shipping_mode: 'manual_shipping' });
    const reminder = await issuedReminder(invoice.id);
    await api.get(`/api/v1/invoices/${invoice.id}`).expect(200);
    const shipped = await api.act(invoice.id, `reminders/${reminder}/ship`);
    expect(shipped.status).toBe(202);
    const path = `/invoices/${invoice.id}`;
    const action = `${path}/reminders/${reminder}/confirm_shipping`;
    expect((await browser.get(path).expect(200)).text).toContain(`href="${action}" data-operation="confirm_shipping"`);
    expect((await browser.get(action).expect(200)).text).toContain('die Mahnung 1 selbst gedruckt und versandt');
    const page = await follow(await post(action, action), path);
    expect(page.text).toContain('Der Versand wurde bestätigt.');
    expect((await wire(invoice.id)).invoice_status).toBe('reminder1_sent');
  });

  it('ships a reminder again after its shipment failed, offered only then; once out, again is refused', async () => {
    const invoice = await newInvoice();
    const reminder = await issuedReminder(invoice.id);
    const path = `/invoices/${invoice.id}`;
    const action = `${path}/reminders/${reminder}/ship`;
    expect((await browser.get(path).expect(200)).text).not.toContain('data-operation="ship"');
    await t.db.query(
      `INSERT INTO shipments (company_id, id, invoice_id, reminder_id, document, shipping_mode, mode_source, status, attention, actor_type, created_at, updated_at)
       VALUES ($1, gen_random_uuid(), $2, $3, 'reminder', 'email', 'customer', 'failed', 'mailbox full', 'api', now(), now())`,
      [uuid(user.company.id), uuid(invoice.id), uuid(reminder)],
    );
    expect((await browser.get(path).expect(200)).text).toContain(`href="${action}" data-operation="ship"`);
    const confirm = await browser.get(action).expect(200);
    expect(confirm.text).toContain('noch einmal auf dem Versandweg des Kunden');
    expect(confirm.text).toContain(`href="/customers/${customerId}"`);
    // The customer has no e-mail address: the service's reason, nothing recorded.
    const refused = await post(action, action);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('data-code="shipping.not_routable"');
    expect(refused.text).toContain('no e-mail address');
    expect((await wire(invoice.id)).invoice_status).toBe('ready_for_reminder1');
    // The cause fixed (the customer's letters go out by the client): shipped again.
    await t.db.query(`UPDATE customers SET shipping_mode = 'skip_shipping' WHERE id = $1`, [uuid(customerId)]);
    const page = await follow(await post(action, action), path);
    expect(page.text).toContain('Die Mahnung wird erneut versendet.');
    expect((await wire(invoice.id)).invoice_status).toBe('reminder1_sent');

    const dashboard = await browser.get('/dashboard').expect(200);
    const again = await browser
      .post(action)
      .type('form')
      .send({ _csrf: csrfOf(dashboard.text) });
    expect(again.status).toBe(409);
    expect(again.text).toContain('The reminder went out already');
    expect((await wire(invoice.id)).invoice_status).toBe('reminder1_sent');
  });

  it('links the statement of claim once the invoice is at debt collection, served through the session', async () => {
    const invoice = await newInvoice();
    const path = `/invoices/${invoice.id}`;
    expect((await browser.get(path).expect(200)).text).not.toContain('statement_of_claim');
    expect((await browser.get(`${path}/statement_of_claim`)).status).toBe(409);
    await setStatus(invoice.id, 'sent_to_dept_collection');
    expect((await browser.get(path).expect(200)).text).toContain(`href="${path}/statement_of_claim?inline=true"`);
    const pdf = await browser.get(`${path}/statement_of_claim?inline=true`).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^inline;/);
    await t.http.get(`${path}/statement_of_claim`).expect(303);
  });

  it('refuses every form without the CSRF token and changes nothing', async () => {
    const invoice = await newInvoice({ shipping_mode: 'manual_shipping' });
    await api.act(invoice.id, 'release').expect((res) => expect(res.status).toBeLessThan(300));
    const reminder = `rem-00000000-0000-4000-8000-000000000000`;
    const base = `/invoices/${invoice.id}`;
    for (const path of [
      `${base}/edit`,
      `${base}/confirm_shipping`,
      `${base}/reminders/${reminder}/confirm_shipping`,
      `${base}/reminders/${reminder}/ship`,
    ]) {
      const res = await browser.post(path).type('form').send({ due_date: '2027-01-31', _csrf: 'forged' });
      expect(res.status).toBe(403);
    }
    expect(await wire(invoice.id)).toMatchObject({ invoice_status: 'draft', due_date: '2026-11-24' });
  });

  it('answers another company’s invoice with the 404 page for every operation and changes nothing', async () => {
    const invoice = await newInvoice({ shipping_mode: 'manual_shipping' });
    await api.act(invoice.id, 'release').expect((res) => expect(res.status).toBeLessThan(300));
    const reminder = await issuedReminder(invoice.id);
    await setStatus(invoice.id, 'draft');
    const stranger = request.agent(t.app.getHttpServer());
    await signIn(stranger, (await registerUser(t.app, 'Fremde GmbH')).email);
    const csrf = csrfOf((await stranger.get('/dashboard').expect(200)).text);
    const base = `/invoices/${invoice.id}`;
    const paths = [
      `${base}/edit`,
      `${base}/confirm_shipping`,
      `${base}/reminders/${reminder}/confirm_shipping`,
      `${base}/reminders/${reminder}/ship`,
    ];
    for (const path of [...paths, `${base}/letter`, `${base}/statement_of_claim`]) {
      const res = await stranger.get(path).expect(404);
      expect(res.text).toContain('Seite nicht gefunden');
      expect(res.text).not.toContain('RE-1');
    }
    for (const path of paths) await stranger.post(path).type('form').send({ _csrf: csrf, due_date: '2027-01-31' }).expect(404);
    expect(await wire(invoice.id)).toMatchObject({ invoice_status: 'draft', due_date: '2026-11-24' });
    // An unknown reminder of one's own invoice is the 404 page too.
    await browser.get(`${base}/reminders/rem-00000000-0000-4000-8000-000000000000/ship`).expect(404);
  });

  it('lets a member edit and confirm shipping: daily work, not owner-only', async () => {
    const member = request.agent(t.app.getHttpServer());
    await signIn(member, (await addUser(t.app, user, 'member')).email);
    const invoice = await newInvoice({ shipping_mode: 'manual_shipping' });
    const path = `/invoices/${invoice.id}`;
    await follow(await post(`${path}/edit`, `${path}/edit`, { due_date: '2026-12-31' }, member), path, member);
    await api.act(invoice.id, 'release').expect((res) => expect(res.status).toBeLessThan(300));
    await follow(await post(`${path}/confirm_shipping`, `${path}/confirm_shipping`, {}, member), path, member);
    expect(await wire(invoice.id)).toMatchObject({ invoice_status: 'sent', due_date: '2026-12-31' });
  });
});
