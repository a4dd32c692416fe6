// The manual status actions end to end: each is allowed from exactly the source statuses of the
// transition table (every status is reached directly in SQL), every refusal is a 409 naming them, and
// every status change is an event at GET /events with actor, from, to and reason.
import { INVOICE_STATUSES, TRANSITIONS } from '../../src/invoices/invoice-status.js';
import { createContact, createCustomer, DATETIME, errorFields, expectProblem } from '../support/factories.js';
import { type InvoiceApi, invoiceApi, invoiceSuiteConfig, setStatus, type WireEvent } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';

const config = invoiceSuiteConfig('transitions');

const OPEN = [
  'sent',
  'due',
  'ready_for_reminder1',
  'reminder1_sent',
  'ready_for_reminder2',
  'reminder2_sent',
  'ready_for_reminder3',
  'reminder3_sent',
  'ready_for_dept_collection',
  'sent_to_dept_collection',
];

/** The manual actions of issue 3 (and the dunning issue's table): source statuses and target. */
const EXPECTED: Record<string, { from: string[]; to: string }> = {
  release: { from: ['draft'], to: 'sent' },
  archive: { from: ['draft', 'paid', 'written_off'], to: 'archived' },
  mark_duplicate: { from: ['draft', 'sent'], to: 'duplicate' },
  write_off: { from: OPEN, to: 'written_off' },
};

// The invoices ship with skip_shipping (the client sends them itself), so that release moves a draft
// to sent at once; delivery by e-mail or post, where sent follows the delivery, has its own suites.
const CASES = Object.keys(EXPECTED).flatMap((action) => INVOICE_STATUSES.map((status) => [action, status] as const));

describe('manual status actions', () => {
  let api: InvoiceApi;
  let customerId: string;

  const t = useTestApp(config, { reset: 'once', company: true });
  beforeAll(async () => {
    api = invoiceApi(t.app, t.company);
    customerId = (await createCustomer(t.app, t.company)).id;
  });

  it('the code’s transition table has these rows (a changed row must change this test too)', () => {
    for (const [action, row] of Object.entries(EXPECTED)) {
      expect({
        action,
        from: [...TRANSITIONS[action as keyof typeof TRANSITIONS].from].sort(),
        to: TRANSITIONS[action as keyof typeof TRANSITIONS].to,
      }).toEqual({
        action,
        from: [...row.from].sort(),
        to: row.to,
      });
    }
  });

  it.each(CASES)('%s from %s', async (action, source) => {
    const invoice = await api.createOk({ customer_id: customerId, total: '100', shipping_mode: 'skip_shipping' });
    await setStatus(t.app, invoice.id, source);
    const before = (await api.invoice(invoice.id).expect(200)).body.invoice;
    const eventsBefore: WireEvent[] = (await api.events(invoice.id).expect(200)).body.events;
    const res = await api.act(invoice.id, action, { reason: `Grund für ${action}` });
    const { from, to } = EXPECTED[action];
    const events: WireEvent[] = (await api.events(invoice.id).expect(200)).body.events;

    if (from.includes(source)) {
      expect(res.status).toBe(200);
      expect(res.body.invoice).toMatchObject({ id: invoice.id, invoice_status: to });
      expect(res.body.invoice.written_off_at === null).toBe(action !== 'write_off');
      await api.invoice(invoice.id).expect(200, res.body);
      expect(events).toHaveLength(eventsBefore.length + 1);
      expect(events.at(-1)).toMatchObject({
        kind: 'status_changed',
        from_status: source,
        to_status: to,
        actor: { type: 'api' },
        reason: `Grund für ${action}`,
      });
    } else {
      expectProblem(res, 409);
      expect(res.body).toMatchObject({ code: 'invoice.transition_not_allowed', current_status: source });
      expect([...res.body.allowed_from].sort()).toEqual([...from].sort());
      expect(res.body.detail).toMatch(
        new RegExp(
          `^An invoice in status ${source} cannot be [a-z ]+; allowed from: ${TRANSITIONS[action as keyof typeof TRANSITIONS].from.join(', ')}$`,
        ),
      );
      expect((await api.invoice(invoice.id).expect(200)).body.invoice).toEqual(before);
      expect(events).toEqual(eventsBefore);
    }
  });

  describe('Idempotency-Key', () => {
    const SOURCE: Record<string, string> = {
      release: 'draft',
      archive: 'draft',
      mark_duplicate: 'sent',
      write_off: 'due',
      hand_to_collection: 'ready_for_dept_collection',
    };

    it.each(Object.entries(SOURCE))('%s: a retry gets the first answer, not a 409, and the status changes once', async (action, source) => {
      const invoice = await api.createOk({ customer_id: customerId, total: '100', shipping_mode: 'skip_shipping' });
      await setStatus(t.app, invoice.id, source);
      const key = { 'Idempotency-Key': `${action}-${invoice.id}` };
      const first = await api.act(invoice.id, action, { reason: 'einmal' }, key);
      expect(first.status).toBe(200);
      const retry = await api.act(invoice.id, action, { reason: 'einmal' }, key);
      expect({ status: retry.status, replayed: retry.headers['idempotent-replayed'], body: retry.body }).toEqual({
        status: 200,
        replayed: 'true',
        body: first.body,
      });
      const changes = ((await api.events(invoice.id).expect(200)).body.events as WireEvent[]).filter(
        (e) => e.kind === 'status_changed' && e.reason === 'einmal',
      );
      expect(changes).toHaveLength(1);
      const other = await api.act(invoice.id, action, { reason: 'anders' }, key);
      expectProblem(other, 422);
      expect(other.body.code).toBe('idempotency.key_reused');
    });

    it('release by e-mail: a retry gets the first 202 (shipping under way), one shipment', async () => {
      const contact = await createContact(t.app, t.company, customerId, { email: 'erika@kunde.de' });
      const invoice = await api.createOk({ customer_id: customerId, contact_id: contact.id, total: '100', shipping_mode: 'email' });
      const key = { 'Idempotency-Key': `release-${invoice.id}` };
      const first = await api.act(invoice.id, 'release', undefined, key);
      expect({ status: first.status, invoice_status: first.body.invoice?.invoice_status }).toEqual({
        status: 202,
        invoice_status: 'draft',
      });
      const retry = await api.act(invoice.id, 'release', undefined, key);
      expect({ status: retry.status, body: retry.body }).toEqual({ status: 202, body: first.body });
      const [{ count }] = await t.db.query('SELECT count(*)::int AS count FROM shipments WHERE invoice_id = $1', [invoice.id.slice(4)]);
      expect(count).toBe(1);
    });

    it('a refused action frees its key: the retry after fixing the cause goes through', async () => {
      const invoice = await api.createOk({ customer_id: customerId, total: '100', shipping_mode: 'skip_shipping' });
      await setStatus(t.app, invoice.id, 'sent');
      const key = { 'Idempotency-Key': `archive-${invoice.id}` };
      expectProblem(await api.act(invoice.id, 'archive', undefined, key), 409);
      await setStatus(t.app, invoice.id, 'paid', 'sent');
      expect((await api.act(invoice.id, 'archive', undefined, key).expect(200)).body.invoice.invoice_status).toBe('archived');
    });
  });

  describe('events', () => {
    it('record the whole life of an invoice at GET /events: actor api, from, to, reason, in order', async () => {
      const invoice = await api.createOk({ customer_id: customerId, total: '100', shipping_mode: 'skip_shipping' });
      await api.act(invoice.id, 'release', { reason: 'per Post verschickt' }).expect(200);
      const paid = await api.payForm(invoice.id, { amount: '100' }).expect(201);
      await api.deletePayment(invoice.id, paid.body.invoice.payments[0].id).expect(204);
      await api.act(invoice.id, 'write_off').expect(200);
      await api.act(invoice.id, 'archive', { reason: 'Jahresabschluss' }).expect(200);

      const res = await api.events(invoice.id).expect(200);
      expect(Object.keys(res.body)).toEqual(['events']);
      const events: WireEvent[] = res.body.events;
      for (const event of events) {
        expect(Object.keys(event).sort()).toEqual([
          'actor',
          'created_at',
          'details',
          'documents',
          'from_status',
          'id',
          'kind',
          'reason',
          'to_status',
        ]);
        expect(event.created_at).toMatch(DATETIME);
        expect(event.actor).toEqual({ type: 'api', id: events[0].actor.id });
      }
      expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));
      expect(events.map((e) => [e.kind, e.from_status, e.to_status, e.reason])).toEqual([
        ['created', null, 'draft', null],
        ['status_changed', 'draft', 'sent', 'per Post verschickt'],
        ['payment_recorded', null, null, null],
        ['status_changed', 'sent', 'paid', 'payment recorded'],
        ['payment_deleted', null, null, null],
        ['status_changed', 'paid', 'sent', 'payment deleted'],
        ['status_changed', 'sent', 'written_off', null],
        ['status_changed', 'written_off', 'archived', 'Jahresabschluss'],
      ]);
    });

    it('name the API token that acted', async () => {
      const invoice = await api.createOk({ customer_id: customerId, total: '100', 'options[autoskip_shipping]': 'true' });
      const [token] = await t.db.query('SELECT id FROM api_tokens WHERE company_id = $1', [t.company.id.slice(4)]);
      const events: WireEvent[] = (await api.events(invoice.id).expect(200)).body.events;
      expect(events.map((e) => e.actor)).toEqual([
        { type: 'api', id: token.id },
        { type: 'api', id: token.id },
      ]);
    });

    it('take the reason from a JSON body too, and refuse one over 1000 characters', async () => {
      const invoice = await api.createOk({ customer_id: customerId, total: '100', shipping_mode: 'skip_shipping' });
      const long = await api.act(invoice.id, 'release', { reason: 'x'.repeat(1001) });
      expectProblem(long, 422);
      expect(errorFields(long)).toEqual(['reason']);
      await t.http
        .post(`/api/v1/invoices/${invoice.id}/release`)
        .set('Authorization', t.company.auth)
        .send({ reason: 'JSON-Grund' })
        .expect(200);
      const events: WireEvent[] = (await api.events(invoice.id).expect(200)).body.events;
      expect(events.at(-1)).toMatchObject({ to_status: 'sent', reason: 'JSON-Grund' });
    });

    it.each(['release', 'archive', 'mark_duplicate', 'write_off'])('%s of an unknown invoice is a 404', async (action) => {
      expectProblem(await api.act('inv-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f', action), 404);
    });

    it('answers GET /events of an unknown invoice with 404', async () => {
      expectProblem(await api.events('inv-6f1c2d34-5a6b-4c7d-8e9f-0a1b2c3d4e5f'), 404);
    });
  });
});
