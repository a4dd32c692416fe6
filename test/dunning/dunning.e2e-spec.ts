import request from 'supertest';
import { DunningScheduler } from '../../src/dunning/dunning-scheduler.js';
import { type Json, withoutRateLimits } from '../support/factories.js';
import { makePdf } from '../support/pdf.js';
import { reclaimPassport, registerCompany, startTestApp } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('dunning engine', () => {
  let customerId: string;
  let pdf: Buffer;

  const t = useTestApp(withoutRateLimits(), { company: true });
  beforeAll(async () => {
    pdf = await makePdf('Rechnung');
  });
  beforeEach(async () => {
    const customer = await api()
      .post('/api/v1/customers')
      .type('form')
      .send({
        name: 'Kunde AG',
        address_line1: 'Kunde AG',
        address_line3: 'Hauptstr. 1',
        zip: '10115',
        city: 'Berlin',
        country_code: 'DE',
      })
      .expect(201);
    customerId = customer.body.id;
    await api()
      .post('/api/v1/contacts')
      .type('form')
      .send({ name: 'Erika Muster', gender: 2, salutation: 0, email: 'erika@kunde.de', customer_id: customerId })
      .expect(201);
  });

  function api() {
    const server = t.app.getHttpServer();
    const auth = (req: request.Test) => req.set('Authorization', t.company.auth);
    return {
      get: (path: string) => auth(request(server).get(path)),
      post: (path: string) => auth(request(server).post(path)),
      put: (path: string) => auth(request(server).put(path)),
      patch: (path: string) => auth(request(server).patch(path)),
    };
  }

  /** A sent invoice (the client shipped it), whose reminders go out by e-mail. */
  async function sentInvoice(dueDate: string, total = '100.00', extra: Record<string, string> = {}): Promise<string> {
    const req = api()
      .post('/api/v1/invoices')
      .field('customer_id', customerId)
      .field('total', total)
      .field('invoice_date', '2026-01-01')
      .field('due_date', dueDate)
      .field('options[autoskip_shipping]', 'true');
    for (const [k, v] of Object.entries(extra)) req.field(k, v);
    const res = await req.attach('invoice', pdf, 'r.pdf').expect(201);
    const id = res.body.invoice.id;
    await api().patch(`/api/v1/invoices/${id}`).send({ shipping_mode: 'email' }).expect(200);
    return id;
  }

  const invoice = async (id: string): Promise<Json> => (await api().get(`/api/v1/invoices/${id}`).expect(200)).body.invoice;
  const run = async (date: string): Promise<Json> => (await api().post('/api/v1/dunning_runs').send({ date }).expect(201)).body.dunning_run;
  /** A date run again with nothing left to do: the earlier run answered (200, repeated), none stored. */
  const repeat = async (date: string): Promise<Json> => {
    const res = await api().post('/api/v1/dunning_runs').send({ date }).expect(200);
    expect(res.body.repeated).toBe(true);
    return res.body.dunning_run;
  };
  const statusOf = async (id: string) => (await invoice(id)).invoice_status;
  const waitForStatus = (id: string, status: string) =>
    waitFor(async () => ((await statusOf(id)) === status ? true : undefined), `${id} to be ${status}`);

  it('walks an unpaid invoice through the whole cycle with the default policy', async () => {
    const id = await sentInvoice('2026-01-10');
    expect((await run('2026-01-10')).transitions).toEqual({});
    expect((await run('2026-01-11')).transitions).toEqual({ become_due: 1 });
    expect(await statusOf(id)).toBe('due');
    expect((await run('2026-01-16')).transitions).toEqual({});
    const first = await run('2026-01-17');
    expect(first).toMatchObject({
      transitions: { ready_for_reminder1: 1 },
      reminders_created: 1,
      fees_planned: '0.0',
      status: 'succeeded',
    });
    await waitForStatus(id, 'reminder1_sent');
    expect((await run('2026-01-30')).transitions).toEqual({});
    expect((await run('2026-01-31')).transitions).toEqual({ ready_for_reminder2: 1 });
    await waitForStatus(id, 'reminder2_sent');
    expect(await invoice(id)).toMatchObject({ reminder_fees: '2.5', open_amount: '102.5', total: '102.5', original_total: '100.0' });
    await run('2026-02-14');
    await waitForStatus(id, 'reminder3_sent');
    const third = await invoice(id);
    expect(third.reminders.map((r: Json) => [r.reminder_stage, r.reminder_date, r.fees])).toEqual([
      [1, '2026-01-17', '0.0'],
      [2, '2026-01-31', '2.5'],
      [3, '2026-02-14', '2.5'],
    ]);
    expect(third.reminders.every((r: Json) => typeof r.last_sent_at === 'string')).toBe(true);
    expect((await run('2026-02-27')).transitions).toEqual({});
    expect((await run('2026-02-28')).transitions).toEqual({ ready_for_collection: 1 });
    const handed = await api().post(`/api/v1/invoices/${id}/hand_to_collection`).expect(200);
    expect(handed.body.invoice.invoice_status).toBe('sent_to_dept_collection');
    const events = (await api().get(`/api/v1/invoices/${id}/events`).expect(200)).body.events as Json[];
    const byRun = events.filter((e) => e.kind === 'status_changed' && e.actor.type === 'run').map((e) => e.to_status);
    expect(byRun).toEqual([
      'due',
      'ready_for_reminder1',
      'reminder1_sent',
      'ready_for_reminder2',
      'reminder2_sent',
      'ready_for_reminder3',
      'reminder3_sent',
      'ready_for_dept_collection',
    ]);
  });

  it('is idempotent: the same business date twice changes nothing the second time', async () => {
    const id = await sentInvoice('2026-01-10');
    const first = await run('2026-01-17');
    expect(first.transitions).toEqual({ become_due: 1, ready_for_reminder1: 1 });
    await waitForStatus(id, 'reminder1_sent');
    expect(await repeat('2026-01-17')).toEqual(first);
    expect((await invoice(id)).reminders).toHaveLength(1);
    expect((await api().get('/api/v1/dunning_runs').expect(200)).body.meta.total_count).toBe(1);
  });

  it('catches up after missed runs by one reminder level at most', async () => {
    const id = await sentInvoice('2026-01-10');
    expect((await run('2026-06-30')).transitions).toEqual({ become_due: 1, ready_for_reminder1: 1 });
    await waitForStatus(id, 'reminder1_sent');
    // Both steps in one statement still leave two events, in order.
    const events = (await api().get(`/api/v1/invoices/${id}/events`).expect(200)).body.events as Json[];
    expect(
      events.filter((e) => e.actor.type === 'run' && e.kind === 'status_changed').map((e) => [e.from_status, e.to_status, e.reason]),
    ).toEqual([
      ['sent', 'due', 'the due date has passed'],
      ['due', 'ready_for_reminder1', '7 days overdue'],
      ['ready_for_reminder1', 'reminder1_sent', expect.any(String)],
    ]);
    expect((await repeat('2026-06-30')).transitions).toEqual({ become_due: 1, ready_for_reminder1: 1 });
    expect((await run('2026-07-14')).transitions).toEqual({ ready_for_reminder2: 1 });
  });

  it('respects the minimum open amount, stop_automatic_reminders and a dunning block, which still become due', async () => {
    await api()
      .put('/api/v1/dunning_policy')
      .send({ levels: [{ minimum_open_amount: '50.00' }, {}, {}] })
      .expect(200);
    const small = await sentInvoice('2026-01-10', '49.99');
    const blocked = await sentInvoice('2026-01-10', '100.00');
    await api()
      .patch(`/api/v1/invoices/${blocked}`)
      .send({ dunning_block_reason: 'Reklamation', dunning_block_until: '2026-02-01' })
      .expect(200);
    const result = await run('2026-01-20');
    expect(result.transitions).toEqual({ become_due: 2 });
    expect([await statusOf(small), await statusOf(blocked)]).toEqual(['due', 'due']);
    expect((await run('2026-02-02')).transitions).toEqual({ ready_for_reminder1: 1 });
    await waitForStatus(blocked, 'reminder1_sent');

    await api().patch(`/api/v1/customers/${customerId}`).send({ stop_automatic_reminders: true }).expect(200);
    const stopped = await sentInvoice('2026-03-01');
    expect((await run('2026-03-20')).transitions).toEqual({ become_due: 1 });
    expect(await statusOf(stopped)).toBe('due');
  });

  it('creates reminders with fee 0 when the invoice ignores reminder fees', async () => {
    const id = await sentInvoice('2026-01-10', '100.00', { ignore_reminder_fees: 'true' });
    await run('2026-01-17');
    await waitForStatus(id, 'reminder1_sent');
    await run('2026-01-31');
    await waitForStatus(id, 'reminder2_sent');
    expect(await invoice(id)).toMatchObject({ reminder_fees: '0.0', open_amount: '100.0' });
  });

  it('stops the moment the invoice is paid, partial payments keep it going, and fee rests are waived', async () => {
    const id = await sentInvoice('2026-01-10');
    await run('2026-01-17');
    await waitForStatus(id, 'reminder1_sent');
    await api().post(`/api/v1/invoices/${id}/payments`).send({ amount: '30' }).expect(201);
    await run('2026-01-31');
    await waitForStatus(id, 'reminder2_sent');
    expect(await invoice(id)).toMatchObject({ open_amount: '72.5' });
    const paid = await api().post(`/api/v1/invoices/${id}/payments`).send({ amount: '70' }).expect(201);
    expect(paid.body.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '0.0' });
    const events = (await api().get(`/api/v1/invoices/${id}/events`).expect(200)).body.events as Json[];
    expect(events.find((e) => e.kind === 'rest_waived')?.details).toEqual({ waived: '2.5', waived_amount: '2.5' });
    expect(paid.body.invoice).toMatchObject({ total: '102.5', waived_amount: '2.5' });
    expect((await run('2026-03-31')).transitions).toEqual({});
  });

  it('waits for approval when the policy says so, and re-checks every guard when approved', async () => {
    await api()
      .put('/api/v1/dunning_policy')
      .send({ auto_ship: false, levels: [{ minimum_open_amount: '50.00' }, {}, {}] })
      .expect(200);
    const paidMeanwhile = await sentInvoice('2026-01-10');
    const belowMinimum = await sentInvoice('2026-01-10');
    const waiting = await sentInvoice('2026-01-10');
    const result = await run('2026-01-17');
    expect(result).toMatchObject({ transitions: { become_due: 3, ready_for_reminder1: 3 }, reminders_created: 0 });
    await api().post(`/api/v1/invoices/${paidMeanwhile}/payments`).send({ amount: '100' }).expect(201);
    await api().post(`/api/v1/invoices/${belowMinimum}/payments`).send({ amount: '60' }).expect(201);
    const approved = await api().post('/api/v1/dunning/approvals').send({ date: '2026-01-18', all: true, expected_count: 2 }).expect(201);
    expect(approved.body.reminders.map((r: Json) => r.invoice_id)).toEqual([waiting]);
    expect(approved.body.stepped_back).toEqual([{ invoice_id: belowMinimum, reminder_stage: 1, reason: 'the open amount is below 50.00' }]);
    expect(await statusOf(belowMinimum)).toBe('due');
    await waitForStatus(waiting, 'reminder1_sent');
    expect(await statusOf(paidMeanwhile)).toBe('paid');
    const events = (await api().get(`/api/v1/invoices/${belowMinimum}/events`).expect(200)).body.events as Json[];
    expect(events.at(-1)).toMatchObject({ from_status: 'ready_for_reminder1', to_status: 'due', reason: 'the open amount is below 50.00' });
    expect((await invoice(belowMinimum)).reminders).toEqual([]);
  });

  it('previews exactly what the run then does, writing nothing', async () => {
    const a = await sentInvoice('2026-01-10');
    const b = await sentInvoice('2026-01-15');
    const proposal = (await api().get('/api/v1/dunning/proposal?date=2026-01-17').expect(200)).body.proposal;
    expect(await statusOf(a)).toBe('sent');
    expect(proposal.transitions.map((t: Json) => [t.action, [...t.invoice_ids].sort()])).toEqual([
      ['become_due', [a, b].sort()],
      ['ready_for_reminder1', [a]],
    ]);
    expect(proposal.reminders).toEqual([{ invoice_id: a, reminder_stage: 1, fees: '0.0', default_interest: '0.0', flat_fee: '0.0' }]);
    const done = await run('2026-01-17');
    expect(done.transitions).toEqual({ become_due: 2, ready_for_reminder1: 1 });
  });

  it('runs a scheduled date once even when two replicas tick together', async () => {
    const second = await startTestApp(withoutRateLimits());
    try {
      await sentInvoice('2026-01-10');
      await api().put('/api/v1/dunning_policy').send({ run_at: '00:00' }).expect(200);
      const now = new Date();
      await Promise.all([t.app.get(DunningScheduler).tick(now), second.get(DunningScheduler).tick(now)]);
      await waitFor(async () => {
        const rows = await t.db.query(`SELECT count(*)::int AS n FROM dunning_runs WHERE trigger = 'schedule' AND status = 'succeeded'`);
        return rows[0].n >= 1 ? true : undefined;
      }, 'the scheduled run');
      await Promise.all([t.app.get(DunningScheduler).tick(now), second.get(DunningScheduler).tick(now)]);
      await new Promise((r) => setTimeout(r, 1500));
      const rows = await t.db.query(`SELECT count(*)::int AS n FROM dunning_runs WHERE trigger = 'schedule'`);
      expect(rows[0].n).toBe(1);
    } finally {
      await second.close();
      await reclaimPassport(t.app);
    }
  });

  it('keeps policies, runs and proposals to their company', async () => {
    await api().put('/api/v1/dunning_policy').send({ grace_days: 5 }).expect(200);
    const mine = await run('2026-01-17');
    const other = await registerCompany(t.app);
    const theirs = (req: request.Test) => req.set('Authorization', other.auth);
    const policy = await theirs(t.http.get('/api/v1/dunning_policy')).expect(200);
    expect(policy.body.dunning_policy.grace_days).toBe(0);
    await theirs(t.http.get(`/api/v1/dunning_runs/${mine.id}`)).expect(404);
    const list = await theirs(t.http.get('/api/v1/dunning_runs')).expect(200);
    expect(list.body.meta.total_count).toBe(0);
  });

  it('refuses an invalid policy with 422 naming the field', async () => {
    const res = await api()
      .put('/api/v1/dunning_policy')
      .send({ run_at: '25:00', levels: [{ fee: '-1' }, {}, {}] })
      .expect(422);
    expect(res.body.errors.map((e: Json) => e.field).sort()).toEqual(['levels[0][fee]', 'run_at']);
  });
});
