// Processing faults: retries with exponential backoff after an injected failure, dead letters after
// the last attempt, replay and discard, and an audit log row for every step.
import { jest } from '@jest/globals';
import { BulkPaymentsService } from '../../src/invoices/bulk-payments.service.js';
import { LedgerProcessor } from '../../src/push/processors/ledger.processor.js';
import { expectProblem } from '../support/factories.js';
import { apiKeyAuth, auditSteps, invoiceDocument, pushAccepted, quickPush, waitForStatus } from '../support/push.js';
import { useTestApp } from '../support/use-test-app.js';

describe('push: retries, dead letters, audit log', () => {
  let auth: string;

  const t = useTestApp(quickPush({ retryBaseSeconds: 1 }), { company: true });
  beforeEach(async () => {
    auth = apiKeyAuth(t.company.apiKey);
    await waitForStatus(t.app, auth, await pushAccepted(t.app, auth, invoiceDocument('RE-1', 'K-1')), ['processed']);
  });
  afterEach(() => jest.restoreAllMocks());

  const http = () => t.http;
  const payment = (externalId: string) => ({
    document_type: 'payment',
    external_id: externalId,
    amount: '10.00',
    invoice_external_id: 'RE-1',
  });

  /** Makes the payment processor fail the first `times` calls, as a database hiccup would. */
  function failPayments(times: number): { calls: number[] } {
    const processor = t.app.get(LedgerProcessor);
    const original = processor.payment.apply.bind(processor.payment);
    const seen = { calls: [] as number[] };
    jest.spyOn(processor.payment, 'apply').mockImplementation(async (ctx) => {
      seen.calls.push(Date.now());
      if (seen.calls.length <= times) throw new Error(`injected failure ${seen.calls.length}`);
      return original(ctx);
    });
    return seen;
  }

  it('retries a failed attempt with growing delays and then succeeds, booking the payment once', async () => {
    const seen = failPayments(2);
    const id = await pushAccepted(t.app, auth, payment('Z-1'));
    const failed = await waitForStatus(t.app, auth, id, ['failed']);
    expect(failed.last_error).toBe('injected failure 1');
    const done = await waitForStatus(t.app, auth, id, ['processed'], 60_000);
    expect(done).toMatchObject({ attempts: 3, last_error: null, outcome: 'applied' });
    expect(seen.calls).toHaveLength(3);
    // pg-boss waits between base·2^(n-1) and base·2^n before retry n (jitter): 1–2 s, then 2–4 s. A
    // constant delay would give the second gap about 1 s.
    expect(seen.calls[1] - seen.calls[0]).toBeGreaterThanOrEqual(950);
    expect(seen.calls[2] - seen.calls[1]).toBeGreaterThanOrEqual(1950);
    expect(await auditSteps(t.app, id)).toEqual(['received', 'attempt 1', 'failed 1', 'attempt 2', 'failed 2', 'attempt 3', 'succeeded 3']);
    const [invoice] = await t.db.query(`SELECT open_amount::text AS open FROM invoices WHERE external_id = 'RE-1'`);
    expect(invoice.open).toBe('109.00');
  }, 90_000);

  it('dead-letters a document after 3 retries; replay processes it, and the audit log has every step', async () => {
    failPayments(4);
    const id = await pushAccepted(t.app, auth, payment('Z-2'));
    const dead = await waitForStatus(t.app, auth, id, ['dead_lettered'], 70_000);
    expect(dead).toMatchObject({ attempts: 4, last_error: 'injected failure 4' });
    const list = await http().get('/v2/dead_letters').set('Authorization', auth).expect(200);
    expect(list.body.dead_letters.map((d: { id: string }) => d.id)).toEqual([id]);
    expect(list.body.meta).toMatchObject({ total_count: 1, current_page: 1 });
    const [{ n: before }] = await t.db.query(`SELECT count(*)::int AS n FROM payments WHERE external_id = 'Z-2'`);
    expect(before).toBe(0);

    const replay = await http()
      .post(`/v2/dead_letters/${id}/replay`)
      .set('Authorization', t.company.auth)
      .set('X-Request-ID', 'replay-1')
      .expect(202);
    expect(replay.body.document).toMatchObject({ id, status: 'queued' });
    const done = await waitForStatus(t.app, auth, id, ['processed']);
    expect(done.attempts).toBe(5);
    const [invoice] = await t.db.query(`SELECT open_amount::text AS open FROM invoices WHERE external_id = 'RE-1'`);
    expect(invoice.open).toBe('109.00');
    expect(await auditSteps(t.app, id)).toEqual([
      'received',
      'attempt 1',
      'failed 1',
      'attempt 2',
      'failed 2',
      'attempt 3',
      'failed 3',
      'attempt 4',
      'failed 4',
      'dead_lettered',
      'replayed',
      'attempt 5',
      'succeeded 5',
    ]);
    const log = await http().get(`/v2/audit_log?document_id=${id}&step=replayed`).set('Authorization', auth).expect(200);
    expect(log.body.audit_log).toEqual([
      expect.objectContaining({
        document_id: id,
        step: 'replayed',
        request_id: 'replay-1',
        credential: { type: 'token', id: expect.stringMatching(/^tok-/) },
        document_type: 'payment',
        external_id: 'Z-2',
      }),
    ]);
    await http().get(`/v2/audit_log?document_id=${id}`).set('Authorization', auth).expect(200);
    const received = await http().get(`/v2/audit_log?document_id=${id}&step=received`).set('Authorization', auth).expect(200);
    expect(received.body.audit_log[0]).toMatchObject({
      credential: { type: 'apikey', id: expect.stringMatching(/^key-/) },
      request_id: expect.any(String),
    });
    expect((await http().get('/v2/dead_letters').set('Authorization', auth).expect(200)).body.dead_letters).toEqual([]);
  }, 100_000);

  it('discards a dead letter with a reason; without a reason it is a 422, a second time a 404', async () => {
    failPayments(100);
    const id = await pushAccepted(t.app, auth, payment('Z-3'));
    await waitForStatus(t.app, auth, id, ['dead_lettered'], 70_000);
    expectProblem(await http().delete(`/v2/dead_letters/${id}`).set('Authorization', auth), 422);
    await http().delete(`/v2/dead_letters/${id}`).set('Authorization', auth).send({ reason: 'booked by hand' }).expect(204);
    const doc = await waitForStatus(t.app, auth, id, ['discarded']);
    expect(doc.discard_reason).toBe('booked by hand');
    expectProblem(await http().delete(`/v2/dead_letters/${id}?reason=again`).set('Authorization', auth), 404);
    expectProblem(await http().post(`/v2/dead_letters/${id}/replay`).set('Authorization', auth), 404);
    expect((await auditSteps(t.app, id)).slice(-2)).toEqual(['dead_lettered', 'discarded']);
  }, 100_000);

  it('wakes a later version as soon as the earlier one is processed, after one quiet deferral', async () => {
    failPayments(3);
    const v1 = await pushAccepted(t.app, auth, payment('Z-5'));
    await waitForStatus(t.app, auth, v1, ['failed']);
    const v2 = await pushAccepted(t.app, auth, { ...payment('Z-5'), amount: '12.00' });
    const first = await waitForStatus(t.app, auth, v1, ['processed'], 60_000);
    const second = await waitForStatus(t.app, auth, v2, ['processed'], 60_000);
    // By now v2 waits up to 8 s between its own looks: it ran this soon because v1 woke it.
    expect(Date.parse(second.processed_at as string) - Date.parse(first.processed_at as string)).toBeLessThan(4000);
    expect(await auditSteps(t.app, v2)).toEqual(['received', 'deferred', 'attempt 1', 'succeeded 1']);
    const payments = await t.db.query(`SELECT amount::text AS amount FROM payments WHERE external_id = 'Z-5'`);
    expect(payments).toEqual([{ amount: '12.00' }]);
  }, 90_000);

  it('fails one document of a batch alone: its neighbours are processed in the same batch, each booked once', async () => {
    // B-3 pays an archived invoice: an error no retry cures, dead-lettered after its one attempt.
    await waitForStatus(t.app, auth, await pushAccepted(t.app, auth, invoiceDocument('RE-9', 'K-1')), ['processed']);
    const [{ id: archived }] = await t.db.query(`SELECT id FROM invoices WHERE external_id = 'RE-9'`);
    await http().post(`/api/v1/invoices/inv-${archived}/archive`).set('Authorization', t.company.auth).expect(200);
    const body = (i: number) => (i === 3 ? { ...payment('B-3'), invoice_external_id: 'RE-9' } : payment(`B-${i}`));
    const bulk = jest.spyOn(t.app.get(BulkPaymentsService), 'recordMany');
    // Pushed at the same moment: stored by one group commit and claimed as one batch.
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => pushAccepted(t.app, auth, body(i))));
    const bad = await waitForStatus(t.app, auth, ids[3], ['dead_lettered']);
    expect(bad).toMatchObject({
      attempts: 1,
      last_error: 'payment.not_allowed: No payment can be recorded on an invoice in status archived',
    });
    for (const i of [0, 1, 2, 4, 5])
      expect(await waitForStatus(t.app, auth, ids[i], ['processed'])).toMatchObject({ attempts: 1, outcome: 'applied' });
    const payments = await t.db.query(
      `SELECT external_id, count(*)::int AS n FROM payments WHERE external_id LIKE 'B-%' GROUP BY external_id ORDER BY external_id`,
    );
    expect(payments).toEqual(['B-0', 'B-1', 'B-2', 'B-4', 'B-5'].map((external_id) => ({ external_id, n: 1 })));
    const [invoice] = await t.db.query(
      `SELECT paid_amount::text AS paid, open_amount::text AS open FROM invoices WHERE external_id = 'RE-1'`,
    );
    expect(invoice).toEqual({ paid: '50.00', open: '69.00' });
    const [{ events }] = await t.db.query(`SELECT count(*)::int AS events FROM invoice_events WHERE kind = 'payment_recorded'`);
    expect(events).toBe(5);
    // Neighbours were booked together (bulk); B-3 (its invoice archived) was left to the one-by-one path.
    const outcomes = (await Promise.all(bulk.mock.results.map((r) => r.value as Promise<boolean[]>))).flat();
    const offered = bulk.mock.calls.flatMap(([, wanted]) => wanted.map((p) => p.dto.external_id));
    const booked = new Set(offered.filter((_, i) => outcomes[i]));
    expect(booked.size).toBeGreaterThanOrEqual(2);
    expect(booked).not.toContain('B-3');
    expect(await auditSteps(t.app, ids[0])).toEqual(['received', 'attempt 1', 'succeeded 1']);
    expect(await auditSteps(t.app, ids[3])).toEqual(['received', 'attempt 1', 'failed 1', 'dead_lettered']);
  }, 60_000);

  it('keeps the audit log append-only: the database refuses UPDATE and DELETE', async () => {
    await expect(t.db.query(`UPDATE push_audit_log SET step = 'succeeded'`)).rejects.toThrow(/append-only/);
    await expect(t.db.query(`DELETE FROM push_audit_log`)).rejects.toThrow(/append-only/);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM push_audit_log`);
    expect(n).toBeGreaterThan(0);
  });

  it('filters the audit log by step, type, external_id and time, and refuses unknown filters', async () => {
    const id = await pushAccepted(t.app, auth, payment('Z-4'));
    await waitForStatus(t.app, auth, id, ['processed']);
    const byExternal = await http().get('/v2/audit_log?external_id=z-4&document_type=payment').set('Authorization', auth).expect(200);
    expect(byExternal.body.audit_log.map((e: { step: string }) => e.step)).toEqual(['received', 'attempt', 'succeeded']);
    const succeeded = await http().get('/v2/audit_log?step=succeeded&per_page=1&page=2').set('Authorization', auth).expect(200);
    expect(succeeded.body.meta).toMatchObject({ total_count: 2, per_page: 1, current_page: 2 });
    const future = await http().get('/v2/audit_log?since=2999-01-01').set('Authorization', auth).expect(200);
    expect(future.body.audit_log).toEqual([]);
    expectProblem(await http().get('/v2/audit_log?step=exploded').set('Authorization', auth), 400);
    expectProblem(await http().get('/v2/audit_log?document_id=inv-1').set('Authorization', auth), 400);
  });
});
