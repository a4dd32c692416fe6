// The invoice page's status actions and dunning block over HTTP: each action confirmed where the API's
// rules allow it and refused where they do not (the API's reason on the page, nothing changed).
import request from 'supertest';
import { createCustomer } from '../support/factories.js';
import { type InvoiceApi, invoiceApi, invoiceSuiteConfig, setStatus } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { csrfOf, registerUser, signIn, type WebUser } from './web-support.js';

type Agent = ReturnType<typeof request.agent>;

describe('invoice page: status actions (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-invoice-transitions'));
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

  /** Each transition: allowed from a status of the API's table, refused from one outside it. */
  const TRANSITIONS = [
    { action: 'release', from: 'draft', to: 'sent', refusedFrom: 'paid', notice: 'Die Rechnung wurde freigegeben.' },
    { action: 'write_off', from: 'due', to: 'written_off', refusedFrom: 'draft', notice: 'Die Rechnung wurde ausgebucht.' },
    { action: 'archive', from: 'paid', to: 'archived', refusedFrom: 'due', notice: 'Die Rechnung wurde archiviert.' },
    { action: 'mark_duplicate', from: 'sent', to: 'duplicate', refusedFrom: 'due', notice: 'Die Rechnung wurde als Duplikat markiert.' },
    {
      action: 'hand_to_collection',
      from: 'ready_for_dept_collection',
      to: 'sent_to_dept_collection',
      refusedFrom: 'reminder3_sent',
      notice: 'Die Rechnung wurde an das Inkasso übergeben.',
    },
  ];

  it.each(TRANSITIONS)(
    '$action: confirmed from $from, refused from $refusedFrom with the reason',
    async ({ action, from, to, refusedFrom, notice }) => {
      const invoice = await newInvoice();
      const path = `/invoices/${invoice.id}`;
      await setStatus(t.app, invoice.id, from);
      const confirm = await browser.get(`${path}/confirm/${action}`).expect(200);
      expect(confirm.text).toMatch(/id="consequence"/);
      const page = await follow(await post(`${path}/confirm/${action}`, `${path}/confirm/${action}`, { reason: `Grund ${action}` }), path);
      expect(page.text).toContain(notice);
      expect((await wire(invoice.id)).invoice_status).toBe(to);
      const events = (await api.events(invoice.id).expect(200)).body.events;
      expect(events.at(-1)).toMatchObject({ kind: 'status_changed', to_status: to, actor: { type: 'user' }, reason: `Grund ${action}` });

      // Refused: the page names the statuses it is allowed from (the API's 409), and nothing changed.
      const other = await newInvoice({ invoice_number: 'RE-X' });
      await setStatus(t.app, other.id, refusedFrom);
      const offered = await browser.get(`/invoices/${other.id}`).expect(200);
      expect(offered.text).not.toContain(`data-action="${action}"`);
      const unavailable = await browser.get(`/invoices/${other.id}/confirm/${action}`).expect(200);
      expect(unavailable.text).toContain('nicht möglich');
      // A stale page (the status changed meanwhile) posts all the same: the service refuses it.
      const refused = await browser
        .post(`/invoices/${other.id}/confirm/${action}`)
        .type('form')
        .send({ _csrf: csrfOf(unavailable.text) });
      expect(refused.status).toBe(409);
      expect(refused.text).toContain('Die Aktion wurde abgelehnt; nichts wurde geändert.');
      expect(refused.text).toContain('data-code="invoice.transition_not_allowed"');
      expect(refused.text).toContain(`cannot be`);
      expect((await wire(other.id)).invoice_status).toBe(refusedFrom);
    },
  );

  it('release refuses an invoice without a positive total with the API’s reason', async () => {
    const invoice = await api.createOk({ customer_id: customerId, total: '0', shipping_mode: 'skip_shipping' });
    const path = `/invoices/${invoice.id}`;
    const res = await post(`${path}/confirm/release`, `${path}/confirm/release`);
    expect(res.status).toBe(422);
    expect(res.text).toContain('a positive total is required to send the invoice');
    expect((await wire(invoice.id)).invoice_status).toBe('draft');
  });

  it('blocks dunning with reason and date, refuses a block without a reason, and lifts it', async () => {
    const invoice = await newInvoice();
    const path = `/invoices/${invoice.id}`;
    await setStatus(t.app, invoice.id, 'due');
    const empty = await post(`${path}/confirm/block`, `${path}/confirm/block`, { dunning_block_reason: '  ', dunning_block_until: '' });
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('Bitte einen Grund für die Sperre angeben');
    const badDate = await post(`${path}/confirm/block`, `${path}/confirm/block`, {
      dunning_block_reason: 'Streit',
      dunning_block_until: '31.12.',
    });
    expect(badDate.status).toBe(422);
    expect(badDate.text).toContain('value="Streit"');
    expect((await wire(invoice.id)).dunning_block).toBeNull();

    const blocked = await follow(
      await post(`${path}/confirm/block`, `${path}/confirm/block`, {
        dunning_block_reason: 'Kunde bestreitet',
        dunning_block_until: '2026-12-31',
      }),
      path,
    );
    expect(blocked.text).toContain('Das Mahnwesen für diese Rechnung ist gesperrt.');
    expect(blocked.text).toContain('31.12.2026: Kunde bestreitet');
    expect((await wire(invoice.id)).dunning_block).toEqual({ reason: 'Kunde bestreitet', until: '2026-12-31' });
    const confirm = await browser.get(`${path}/confirm/unblock`).expect(200);
    expect(confirm.text).toContain('Die Sperre „Kunde bestreitet“ endet');
    await follow(await post(`${path}/confirm/unblock`, `${path}/confirm/unblock`), path);
    expect((await wire(invoice.id)).dunning_block).toBeNull();

    // A written-off invoice's block can no longer change: neither offered nor done.
    await setStatus(t.app, invoice.id, 'written_off');
    const closed = await browser.get(`${path}/confirm/block`).expect(200);
    expect(closed.text).toContain('nicht möglich');
    const refused = await browser
      .post(`${path}/confirm/block`)
      .type('form')
      .send({ _csrf: csrfOf(closed.text), dunning_block_reason: 'Zu spät' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('data-code="invoice.not_editable"');
    expect((await wire(invoice.id)).dunning_block).toBeNull();
  });
});
