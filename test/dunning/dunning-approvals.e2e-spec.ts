// Dunning approvals (policy auto_ship false): the list of what waits, approving only what is named (or
// all of it, counted), the run's business date on the reminders, proposals that grow too old, rejection,
// the guards applied at approval, tenancy, refused requests that change nothing, and a repeated run.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import request, { type Response } from 'supertest';
import { DunningHarness, type Json } from '../support/dunning.js';
import { withoutRateLimits } from '../support/factories.js';
import { registerCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

/** The answer's body is what openapi.json documents under that component (3.0 `nullable`, decimal strings). */
const ajv = new Ajv({ strict: false, allErrors: true });
formats.default(ajv);
ajv.addFormat('decimal', true);
ajv.addSchema({ components: JSON.parse(readFileSync('openapi.json', 'utf8')).components }, 'openapi');
function documented(res: Response, component: string): Response {
  const validate = ajv.getSchema(`openapi#/components/schemas/${component}`);
  expect({ component, valid: validate?.(res.body), errors: validate?.errors ?? null }).toEqual({ component, valid: true, errors: null });
  return res;
}

describe('dunning approvals', () => {
  let d: DunningHarness;

  const t = useTestApp(withoutRateLimits(), { reset: 'manual' });
  beforeAll(() => {
    d = new DunningHarness(t.app);
  });
  beforeEach(async () => {
    await d.reset();
    await d.policy({ auto_ship: false, levels: [{ fee: '5.00' }, {}, {}] });
  });

  const list = async (query = '') =>
    documented(await d.api().get(`/api/v1/dunning/approvals?date=2026-01-18${query}`).expect(200), 'WaitingReminderList').body;
  const approve = (body: Json) =>
    d
      .api()
      .post('/api/v1/dunning/approvals')
      .send({ date: '2026-01-18', ...body });
  /** What a refused request must leave as it was: the statuses, the waiting list and the reminders. */
  const snapshot = async (ids: string[]) => ({
    statuses: await Promise.all(ids.map((id) => d.statusOf(id))),
    waiting: (await list()).approvals,
    reminders: await Promise.all(ids.map(async (id) => (await d.invoice(id)).reminders)),
  });

  async function threeWaiting(): Promise<{ ids: string[]; run: Json }> {
    const ids = [
      await d.sentInvoice('2026-01-08', '100.00', { invoice_number: 'RE-1' }),
      await d.sentInvoice('2026-01-09'),
      await d.sentInvoice('2026-01-10', '200.00'),
    ];
    const run = await d.run('2026-01-17');
    expect(run).toMatchObject({ reminders_created: 0 });
    return { ids, run };
  }

  it('lists what waits with its charges and its run, paginated and filtered by customer and stage', async () => {
    const otherCustomer = await d.newCustomer();
    const theirs = await d.sentInvoice('2026-01-05', '100.00', {}, otherCustomer);
    const { ids, run } = await threeWaiting();
    const body = await list();
    expect(body.meta).toMatchObject({ total_count: 4, current_page: 1 });
    expect(body.approvals.map((a: Json) => a.invoice_id)).toEqual([theirs, ...ids]);
    expect(body.approvals[1]).toEqual({
      invoice_id: ids[0],
      invoice_number: 'RE-1',
      customer_id: d.customerId,
      open_amount: '100.0',
      reminder_stage: 1,
      fees: '5.0',
      flat_fee: '0.0',
      default_interest: '0.0',
      dunning_run_id: run.id,
      business_date: '2026-01-17',
      proposal_expired: false,
    });
    const page2 = await list('&per_page=2&page=2');
    expect(page2.approvals.map((a: Json) => a.invoice_id)).toEqual([ids[1], ids[2]]);
    expect(page2.meta).toMatchObject({ total_pages: 2, prev_page: 1, next_page: null });
    expect((await list(`&customer_id=${otherCustomer}`)).approvals.map((a: Json) => a.invoice_id)).toEqual([theirs]);
    expect((await list('&reminder_stage=2')).meta.total_count).toBe(0);
    await d.api().get('/api/v1/dunning/approvals?reminder_stage=4').expect(400);
    await d.api().get('/api/v1/dunning/approvals?customer_id=inv-1').expect(400);
  });

  it('approves only the named invoices, dated with the business date of the run that proposed them', async () => {
    const { ids, run } = await threeWaiting();
    const res = documented(await approve({ ids: [ids[1]] }).expect(201), 'ApprovalResult');
    expect(res.body).toEqual({
      reminders: [
        {
          id: expect.stringMatching(/^rem-/),
          invoice_id: ids[1],
          reminder_stage: 1,
          reminder_date: '2026-01-17',
          fees: '5.0',
          default_interest: '0.0',
          flat_fee: '0.0',
          dunning_run_id: run.id,
        },
      ],
      stepped_back: [],
    });
    await d.waitForStatus(ids[1], 'reminder1_sent');
    expect((await d.invoice(ids[1])).reminders).toMatchObject([{ reminder_stage: 1, reminder_date: '2026-01-17' }]);
    expect([await d.statusOf(ids[0]), await d.statusOf(ids[2])]).toEqual(['ready_for_reminder1', 'ready_for_reminder1']);
    expect((await list()).approvals.map((a: Json) => a.invoice_id)).toEqual([ids[0], ids[2]]);
    // A form body names them with ids[]; naming one twice creates it once.
    const form = await d
      .api()
      .post('/api/v1/dunning/approvals')
      .type('form')
      .send(`ids[]=${ids[0]}&ids[]=${ids[0]}&date=2026-01-18`)
      .expect(201);
    expect(form.body.reminders.map((r: Json) => r.invoice_id)).toEqual([ids[0]]);
  });

  it('refuses an empty or missing selection with 422 and never approves everything', async () => {
    const { ids } = await threeWaiting();
    const before = await snapshot(ids);
    for (const body of [
      {},
      { ids: [] },
      { all: false },
      { ids: ['inv-nope'] },
      { all: true },
      { all: true, ids: [ids[0]], expected_count: 3 },
    ]) {
      const res = await approve(body).expect(422);
      expect(res.body.code).toBe('validation.failed');
    }
    const missing = await approve({}).expect(422);
    expect(missing.body.errors).toEqual([{ field: 'ids', message: expect.stringContaining('at least one invoice') }]);
    expect(await snapshot(ids)).toEqual(before);
  });

  it('approves all that wait only with the count the caller saw (409 when it changed)', async () => {
    const { ids } = await threeWaiting();
    const before = await snapshot(ids);
    const changed = documented(await approve({ all: true, expected_count: 2 }).expect(409), 'Problem');
    expect(changed.body).toMatchObject({ code: 'dunning_approval.count_changed', waiting_count: 3 });
    expect(await snapshot(ids)).toEqual(before);
    const all = await approve({ all: true, expected_count: 3 }).expect(201);
    expect(all.body.reminders.map((r: Json) => r.invoice_id).sort()).toEqual([...ids].sort());
    expect((await list()).meta.total_count).toBe(0);
  });

  it('refuses a proposal older than proposal_valid_days until a new run proposes it again', async () => {
    const { ids } = await threeWaiting();
    const before = await snapshot(ids);
    const old = await d
      .api()
      .post('/api/v1/dunning/approvals')
      .send({ date: '2026-01-21', ids: [ids[0]] })
      .expect(409);
    expect(old.body.code).toBe('dunning_approval.proposal_expired');
    expect(old.body.detail).toContain('start a dunning run');
    expect(old.body.errors).toEqual([{ field: 'ids[0]', message: `${ids[0]}: proposed for 2026-01-17` }]);
    const expired = (await d.api().get('/api/v1/dunning/approvals?date=2026-01-21').expect(200)).body.approvals;
    expect(expired.map((a: Json) => a.proposal_expired)).toEqual([true, true, true]);
    expect(await snapshot(ids)).toEqual(before);
    await d.api().post('/api/v1/dunning/approvals').send({ date: '2026-01-21', all: true, expected_count: 3 }).expect(409);

    // A run on the later date proposes them again, for its own date.
    const again = await d.run('2026-01-21');
    const res = await d
      .api()
      .post('/api/v1/dunning/approvals')
      .send({ date: '2026-01-21', ids: [ids[0]] })
      .expect(201);
    expect(res.body.reminders[0]).toMatchObject({ reminder_date: '2026-01-21', dunning_run_id: again.id });

    // The limit is the policy's.
    await d.policy({ auto_ship: false, proposal_valid_days: 10 });
    expect((await d.api().get('/api/v1/dunning_policy').expect(200)).body.dunning_policy.proposal_valid_days).toBe(10);
    await d
      .api()
      .post('/api/v1/dunning/approvals')
      .send({ date: '2026-01-31', ids: [ids[1]] })
      .expect(201);
    await d
      .api()
      .post('/api/v1/dunning/approvals')
      .send({ date: '2026-02-01', ids: [ids[2]] })
      .expect(409);
  });

  it('does not create what no longer passes the guards: the invoice steps back, and only what was created is listed', async () => {
    const { ids } = await threeWaiting();
    await d.api().patch(`/api/v1/invoices/${ids[0]}`).send({ dunning_block_reason: 'Reklamation' }).expect(200);
    const res = documented(await approve({ ids: [ids[0], ids[1]] }).expect(201), 'ApprovalResult');
    expect(res.body.reminders.map((r: Json) => r.invoice_id)).toEqual([ids[1]]);
    expect(res.body.stepped_back).toEqual([{ invoice_id: ids[0], reminder_stage: 1, reason: 'dunning block: Reklamation' }]);
    expect(await d.statusOf(ids[0])).toBe('due');
    expect((await d.events(ids[0])).at(-1)).toMatchObject({
      from_status: 'ready_for_reminder1',
      to_status: 'due',
      reason: 'dunning block: Reklamation',
    });
    expect((await d.invoice(ids[0])).reminders).toEqual([]);
  });

  it('rejects named reminders: the invoices step back and the next run proposes them again', async () => {
    const { ids } = await threeWaiting();
    await d.api().post('/api/v1/dunning/approvals/reject').send({}).expect(422);
    const res = await d
      .api()
      .post('/api/v1/dunning/approvals/reject')
      .send({ ids: [ids[0]], reason: 'Ratenzahlung vereinbart' })
      .expect(200);
    documented(res, 'RejectionResult');
    expect(res.body).toEqual({ rejected: [{ invoice_id: ids[0], reminder_stage: 1, reason: 'rejected: Ratenzahlung vereinbart' }] });
    expect(await d.statusOf(ids[0])).toBe('due');
    expect((await d.events(ids[0])).at(-1)).toMatchObject({
      to_status: 'due',
      reason: 'rejected: Ratenzahlung vereinbart',
      actor: { type: 'api' },
    });
    expect((await list()).approvals.map((a: Json) => a.invoice_id)).toEqual([ids[1], ids[2]]);
    await d
      .api()
      .post('/api/v1/dunning/approvals/reject')
      .send({ ids: [ids[0]] })
      .expect(409);
    expect((await d.run('2026-01-18')).transitions).toEqual({ ready_for_reminder1: 1 });
  });

  it('answers 404 for another company’s invoices and 409 for an invoice with nothing waiting, changing nothing', async () => {
    const { ids } = await threeWaiting();
    const notWaiting = await d.sentInvoice('2026-03-01');
    const other = await registerCompany(t.app);
    const theirs = (req: request.Test) => req.set('Authorization', other.auth);
    const server = t.app.getHttpServer();
    expect((await theirs(request(server).get('/api/v1/dunning/approvals')).expect(200)).body.meta.total_count).toBe(0);
    const before = await snapshot([...ids, notWaiting]);
    const foreign = await theirs(request(server).post('/api/v1/dunning/approvals'))
      .send({ ids: [ids[0]] })
      .expect(404);
    expect(foreign.body).toMatchObject({ code: 'invoice.not_found', errors: [{ field: 'ids[0]' }] });
    await theirs(request(server).post('/api/v1/dunning/approvals/reject'))
      .send({ ids: [ids[0]] })
      .expect(404);
    await theirs(request(server).post('/api/v1/dunning/approvals')).send({ all: true, expected_count: 0 }).expect(201);
    const mixed = await approve({ ids: [ids[0], notWaiting] }).expect(409);
    expect(mixed.body).toMatchObject({
      code: 'dunning_approval.not_waiting',
      errors: [{ field: 'ids[1]', message: `${notWaiting} is sent, with no reminder waiting for approval` }],
    });
    expect(await snapshot([...ids, notWaiting])).toEqual(before);
  });

  it('lists the charges the approval then creates, the flat fee and interest from reminder 2 on', async () => {
    await d.policy({ auto_ship: false, business_flat_fee: true, default_interest: true, levels: [{ fee: '5.00' }, {}, {}] });
    const id = await d.sentInvoice('2026-01-10');
    await d.run('2026-01-17');
    await d
      .api()
      .post('/api/v1/dunning/approvals')
      .send({ date: '2026-01-17', ids: [id] })
      .expect(201);
    await d.waitForStatus(id, 'reminder1_sent');
    await d.run('2026-01-31');
    const [waiting] = (await d.api().get('/api/v1/dunning/approvals?reminder_stage=2&date=2026-02-01').expect(200)).body.approvals;
    expect(waiting).toMatchObject({ invoice_id: id, reminder_stage: 2, business_date: '2026-01-31' });
    expect(Number(waiting.flat_fee)).toBeGreaterThan(0);
    expect(Number(waiting.default_interest)).toBeGreaterThan(0);
    const created = (
      await d
        .api()
        .post('/api/v1/dunning/approvals')
        .send({ date: '2026-02-01', ids: [id] })
        .expect(201)
    ).body.reminders[0];
    expect(created).toMatchObject({ fees: waiting.fees, flat_fee: waiting.flat_fee, default_interest: waiting.default_interest });
  });

  it('answers a run repeated for a business date with nothing left to do with the earlier run (200, repeated)', async () => {
    await threeWaiting();
    const first = (await d.api().get('/api/v1/dunning_runs').expect(200)).body.dunning_runs[0];
    const again = documented(await d.api().post('/api/v1/dunning_runs').send({ date: '2026-01-17' }).expect(200), 'StartedDunningRun');
    expect(again.body).toEqual({ dunning_run: first, repeated: true });
    expect((await d.api().get('/api/v1/dunning_runs').expect(200)).body.meta.total_count).toBe(1);
    // Something to do on that date again: a new run is stored.
    await d.sentInvoice('2026-01-09');
    const more = documented(await d.api().post('/api/v1/dunning_runs').send({ date: '2026-01-17' }).expect(201), 'StartedDunningRun');
    expect(more.body).toMatchObject({ repeated: false, dunning_run: { transitions: { become_due: 1, ready_for_reminder1: 1 } } });
    expect((await d.api().get('/api/v1/dunning_runs').expect(200)).body.meta.total_count).toBe(2);
  });
});
