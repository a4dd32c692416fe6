// The rows of the transition table the other dunning suites do not reach, with the business date as the
// injected clock: the grace days, the guards of levels 2 and 3 and of debt collection, the run's step
// back from ready_for_reminderN, catching up after a block one level per run, partial payments at every
// stage, the proposal against what the run then does over a mixed population, and overpayment.
import { withoutRateLimits } from '../support/factories.js';
import { DunningHarness, type Json } from '../support/dunning.js';
import { useTestApp } from '../support/use-test-app.js';

describe('dunning transitions', () => {
  let d: DunningHarness;

  const t = useTestApp(withoutRateLimits(), { reset: 'manual' });
  beforeAll(() => {
    d = new DunningHarness(t.app);
  });
  beforeEach(async () => d.reset());

  const block = (id: string, until: string | null = null) =>
    d.api().patch(`/api/v1/invoices/${id}`).send({ dunning_block_reason: 'Reklamation', dunning_block_until: until }).expect(200);
  const unblock = (id: string) =>
    d.api().patch(`/api/v1/invoices/${id}`).send({ dunning_block_reason: null, dunning_block_until: null }).expect(200);
  const approveAll = async (date: string, expectedCount: number) =>
    (await d.api().post('/api/v1/dunning/approvals').send({ date, all: true, expected_count: expectedCount }).expect(201)).body;

  it('sent → due only once the business date is past the due date plus the grace days', async () => {
    await d.policy({ grace_days: 3 });
    const id = await d.sentInvoice('2026-01-10');
    expect((await d.run('2026-01-13')).transitions).toEqual({});
    expect((await d.run('2026-01-14')).transitions).toEqual({ become_due: 1 });
    expect(await d.statusOf(id)).toBe('due');
  });

  it('levels 2 and 3 and debt collection have their own guards: minimum, stop_automatic_reminders, block', async () => {
    await d.policy({ levels: [{}, { minimum_open_amount: '50.00' }, {}] });
    const small = await d.sentInvoice('2026-01-10');
    const stopped = await d.sentInvoice('2026-01-10', '100.00', {}, await d.newCustomer());
    const blocked = await d.sentInvoice('2026-01-10');
    await d.run('2026-01-17');
    for (const id of [small, stopped, blocked]) await d.waitForStatus(id, 'reminder1_sent');
    await d.pay(small, '60.00');
    const stoppedCustomer = (await d.invoice(stopped)).customer.id;
    await d.api().patch(`/api/v1/customers/${stoppedCustomer}`).send({ stop_automatic_reminders: true }).expect(200);
    await block(blocked);
    expect((await d.run('2026-01-31')).transitions).toEqual({});
    expect([await d.statusOf(small), await d.statusOf(stopped), await d.statusOf(blocked)]).toEqual([
      'reminder1_sent',
      'reminder1_sent',
      'reminder1_sent',
    ]);

    // The block lifted: reminder 2, then 3; a new block holds the hand-over to debt collection too.
    await unblock(blocked);
    await d.runUntil('2026-02-01', blocked, 'reminder2_sent');
    await d.runUntil('2026-02-15', blocked, 'reminder3_sent');
    await block(blocked, '2026-03-10');
    expect((await d.run('2026-03-01')).transitions).toEqual({});
    expect((await d.run('2026-03-11')).transitions).toEqual({ ready_for_collection: 1 });
    expect(await d.statusOf(small)).toBe('reminder1_sent');
  });

  it('the run steps ready_for_reminderN back when the invoice got blocked or fell below the minimum before approval', async () => {
    await d.policy({
      auto_ship: false,
      levels: [{ minimum_open_amount: '50.00' }, { minimum_open_amount: '50.00' }, { minimum_open_amount: '50.00' }],
    });
    const ids = [await d.sentInvoice('2026-01-10'), await d.sentInvoice('2026-01-10'), await d.sentInvoice('2026-01-10')];
    await d.run('2026-01-17');
    // A partial payment while ready_for_reminder1 keeps it there.
    await d.pay(ids[0], '10.00');
    expect(await d.statusOf(ids[0])).toBe('ready_for_reminder1');
    await approveAll('2026-01-17', 3);
    for (const id of ids) await d.waitForStatus(id, 'reminder1_sent');
    expect((await d.run('2026-01-31')).transitions).toEqual({ ready_for_reminder2: 3 });
    await d
      .api()
      .post('/api/v1/dunning/approvals')
      .send({ date: '2026-01-31', ids: [ids[2]] })
      .expect(201);
    await d.waitForStatus(ids[2], 'reminder2_sent');
    expect((await d.run('2026-02-14')).transitions).toEqual({ ready_for_reminder3: 1 });
    // Invoice 1 waits in ready_for_reminder2 and falls below the minimum; invoice 2 in ready_for_reminder3 gets blocked.
    await d.pay(ids[1], '60.00');
    await block(ids[2]);
    const back = await d.run('2026-02-15');
    expect(back.transitions).toEqual({ step_back2: 1, step_back3: 1 });
    expect([await d.statusOf(ids[1]), await d.statusOf(ids[2])]).toEqual(['reminder1_sent', 'reminder2_sent']);
    const events = await d.events(ids[1]);
    expect(events.at(-1)).toMatchObject({
      kind: 'status_changed',
      from_status: 'ready_for_reminder2',
      to_status: 'reminder1_sent',
      actor: { type: 'run' },
      reason: 'blocked, or the open amount is below the level minimum',
    });

    // Level 1: blocked while waiting for approval.
    const fourth = await d.sentInvoice('2026-03-01');
    await d.run('2026-03-08');
    expect(await d.statusOf(fourth)).toBe('ready_for_reminder1');
    await block(fourth);
    expect((await d.run('2026-03-09')).transitions).toMatchObject({ step_back1: 1 });
    expect(await d.statusOf(fourth)).toBe('due');
    expect((await approveAll('2026-03-09', 1)).reminders.map((r: Json) => r.invoice_id)).toEqual([ids[0]]);
  });

  it('an approval re-checks the block: no reminder is created and the invoice steps back at once', async () => {
    await d.policy({ auto_ship: false });
    const id = await d.sentInvoice('2026-01-10');
    await d.run('2026-01-17');
    await block(id);
    const approved = await approveAll('2026-01-18', 1);
    expect(approved.reminders).toEqual([]);
    expect(await d.statusOf(id)).toBe('due');
    const events = await d.events(id);
    expect(events.at(-1)).toMatchObject({ from_status: 'ready_for_reminder1', to_status: 'due', reason: 'dunning block: Reklamation' });
    expect((await d.invoice(id)).reminders).toEqual([]);
  });

  it('after a block is lifted (or runs were missed), each run moves an invoice one reminder level at most', async () => {
    const id = await d.sentInvoice('2026-01-10');
    await block(id, '2026-06-30');
    expect((await d.run('2026-06-01')).transitions).toEqual({ become_due: 1 });
    const first = await d.runUntil('2026-07-01', id, 'reminder1_sent');
    expect(first).toMatchObject({ transitions: { ready_for_reminder1: 1 }, reminders_created: 1 });
    expect(await d.run('2026-07-01')).toEqual(first);
    expect((await d.run('2026-07-14')).transitions).toEqual({});
    await d.runUntil('2026-12-31', id, 'reminder2_sent');
    const third = await d.runUntil('2027-06-30', id, 'reminder3_sent');
    expect(await d.run('2027-06-30')).toEqual(third);
    expect((await d.invoice(id)).reminders.map((r: Json) => r.reminder_date)).toEqual(['2026-07-01', '2026-12-31', '2027-06-30']);
  });

  it('partial payments at every stage lower the open amount and the dunning goes on; the last payment settles it', async () => {
    const id = await d.sentInvoice('2026-01-10');
    const payAt = async (status: string) => {
      const paid = await d.pay(id, '10.00');
      expect(paid.invoice.invoice_status).toBe(status);
    };
    await payAt('sent');
    await d.run('2026-01-11');
    await payAt('due');
    await d.runUntil('2026-01-17', id, 'reminder1_sent');
    await payAt('reminder1_sent');
    await d.runUntil('2026-01-31', id, 'reminder2_sent');
    await payAt('reminder2_sent');
    await d.runUntil('2026-02-14', id, 'reminder3_sent');
    await payAt('reminder3_sent');
    await d.run('2026-02-28');
    await payAt('ready_for_dept_collection');
    await d.api().post(`/api/v1/invoices/${id}/hand_to_collection`).expect(200);
    await payAt('sent_to_dept_collection');
    expect(await d.invoice(id)).toMatchObject({ reminder_fees: '5.0', total: '105.0', open_amount: '35.0' });
    const settled = await d.pay(id, '35.00');
    expect(settled.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '0.0' });
    expect((await d.run('2026-06-30')).transitions).toEqual({});
  });

  it('the proposal names exactly the invoices the run then moves, over every stage at once', async () => {
    await d.policy({ auto_ship: false });
    const ids = {
      sent: await d.sentInvoice('2026-03-01'),
      due: await d.sentInvoice('2026-02-20'),
      ready1: await d.sentInvoice('2026-01-10'),
      stays: await d.sentInvoice('2026-03-20'),
      blocked: await d.sentInvoice('2026-01-10'),
    };
    await d.run('2026-02-25');
    await block(ids.blocked);
    const proposal = (await d.api().get('/api/v1/dunning/proposal?date=2026-03-05').expect(200)).body.proposal;
    const before = await Promise.all(Object.values(ids).map((id) => d.statusOf(id)));
    const run = await d.run('2026-03-05');
    const after = await Promise.all(Object.values(ids).map((id) => d.statusOf(id)));
    const proposed = Object.fromEntries(proposal.transitions.map((t: Json) => [t.action, t.count]));
    expect(proposed).toEqual(run.transitions);
    const moved = Object.values(ids)
      .filter((_, i) => before[i] !== after[i])
      .sort();
    expect(proposal.transitions.flatMap((t: Json) => t.invoice_ids).sort()).toEqual(moved);
    expect(run.transitions).toEqual({ become_due: 1, ready_for_reminder1: 1, step_back1: 1 });
  });

  it('an overpayment makes the invoice paid and the surplus a customer credit on it, never moved to another invoice', async () => {
    const id = await d.sentInvoice('2026-01-10');
    const other = await d.sentInvoice('2026-01-10');
    const over = await d.pay(id, '130.00');
    expect(over.invoice).toMatchObject({ invoice_status: 'paid', open_amount: '-30.0' });
    expect((await d.events(id)).find((e) => e.kind === 'customer_credit')).toMatchObject({ details: { credit: '30.0' } });
    expect(await d.invoice(other)).toMatchObject({ invoice_status: 'sent', open_amount: '100.0', payments: [] });
  });
});
