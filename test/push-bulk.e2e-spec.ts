// Payments of one batch are booked together where that changes nothing but the money fields (an
// open invoice, the payments staying below its original total), and one by one where the rules say
// more: settling, a later change of an entry, an invoice the batch itself changes. Both give the same
// records as booking each document alone. The worker is off: each test claims its batch by hand.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { BulkPaymentsService } from '../src/invoices/bulk-payments.service.js';
import { LedgerRepository } from '../src/push/ledger.repository.js';
import { PushWorker } from '../src/push/queue/push-worker.js';
import { apiKeyAuth, auditSteps, invoiceDocument, pushAccepted, startPushApp, waitForStatus } from './support/push.js';
import { dataSource, registerCompany, resetDatabase } from './support/test-app.js';

describe('push: payments booked together', () => {
  let app: INestApplication;
  let auth: string;
  let bulk: jest.SpiedFunction<BulkPaymentsService['recordMany']>;

  beforeAll(async () => {
    app = await startPushApp({ worker: false });
  });
  afterAll(async () => app.close());
  beforeEach(async () => {
    await resetDatabase(app);
    auth = apiKeyAuth((await registerCompany(app)).apiKey);
    bulk = jest.spyOn(app.get(BulkPaymentsService), 'recordMany');
  });
  afterEach(() => jest.restoreAllMocks());

  const payment = (externalId: string, invoice: string, amount: string) => ({ document_type: 'payment', external_id: externalId, amount, invoice_external_id: invoice, payment_date: '2026-11-20' });
  /** Pushes the documents, then processes them as one batch. */
  async function batch(...bodies: object[]): Promise<string[]> {
    const ids: string[] = [];
    for (const body of bodies) ids.push(await pushAccepted(app, auth, body));
    await app.get(PushWorker).runOnce(50);
    return ids;
  }
  const invoice = async (externalId: string) =>
    (await dataSource(app).query(`SELECT id, status, paid_amount::text AS paid, open_amount::text AS open FROM invoices WHERE external_id = $1`, [externalId]))[0];
  const events = async (invoiceId: string) =>
    (await dataSource(app).query(`SELECT kind, details->>'amount' AS amount FROM invoice_events WHERE invoice_id = $1 AND kind NOT IN ('created') ORDER BY id`, [invoiceId])) as Array<{ kind: string; amount: string | null }>;
  const bookedInBulk = async () => {
    const outcomes = (await Promise.all(bulk.mock.results.map((r) => r.value as Promise<boolean[]>))).flat();
    return bulk.mock.calls.flatMap(([, wanted]) => wanted.map((p) => p.dto.external_id)).filter((_, i) => outcomes[i]);
  };

  it('books payments below the total together, and the one that pays an invoice in full one by one: same records either way', async () => {
    await batch(invoiceDocument('RE-A', 'K-1'), invoiceDocument('RE-B', 'K-1'));
    const ids = await batch(payment('P-1', 'RE-A', '10.00'), payment('P-2', 'RE-B', '100.00'), payment('P-3', 'RE-A', '20.50'), payment('P-4', 'RE-B', '19.00'));
    for (const id of ids) expect(await waitForStatus(app, auth, id, ['processed'])).toMatchObject({ attempts: 1, outcome: 'applied', result: { type: 'payment', id: expect.stringMatching(/^pay-/) } });
    expect(await bookedInBulk()).toEqual(['P-1', 'P-3']);

    const a = await invoice('RE-A');
    expect(a).toMatchObject({ paid: '30.50', open: '88.50' });
    expect(await events(a.id)).toEqual([
      { kind: 'payment_recorded', amount: '10.0' },
      { kind: 'payment_recorded', amount: '20.5' },
    ]);
    const b = await invoice('RE-B');
    expect(b).toMatchObject({ status: 'paid', paid: '119.00', open: '0.00' });
    expect(await events(b.id)).toEqual([
      { kind: 'payment_recorded', amount: '100.0' },
      { kind: 'payment_recorded', amount: '19.0' },
      { kind: 'status_changed', amount: null },
    ]);
    const payments = await dataSource(app).query(`SELECT external_id, amount::text AS amount, payment_date::text AS date, source FROM payments ORDER BY created_at, id`);
    expect(payments).toEqual([
      { external_id: 'P-1', amount: '10.00', date: '2026-11-20', source: 'PUSH' },
      { external_id: 'P-3', amount: '20.50', date: '2026-11-20', source: 'PUSH' },
      { external_id: 'P-2', amount: '100.00', date: '2026-11-20', source: 'PUSH' },
      { external_id: 'P-4', amount: '19.00', date: '2026-11-20', source: 'PUSH' },
    ]);
    expect(await auditSteps(app, ids[0])).toEqual(['received', 'attempt 1', 'succeeded 1']);
  });

  it('leaves an invoice to the one-by-one path when the batch changes it or changes an entry on it', async () => {
    await batch(invoiceDocument('RE-A', 'K-1'), invoiceDocument('RE-B', 'K-1'), payment('P-9', 'RE-B', '5.00'));
    bulk.mockClear();
    // RE-A is changed by the batch (a new total); on RE-B, P-9 is changed (a new amount).
    const ids = await batch(payment('P-1', 'RE-A', '10.00'), invoiceDocument('RE-A', 'K-1', { amount: '200.00' }), payment('P-2', 'RE-B', '1.00'), { ...payment('P-9', 'RE-B', '7.00') });
    for (const id of ids) await waitForStatus(app, auth, id, ['processed']);
    expect(await bookedInBulk()).toEqual([]);
    expect(await invoice('RE-A')).toMatchObject({ paid: '10.00', open: '190.00' });
    expect(await invoice('RE-B')).toMatchObject({ paid: '8.00', open: '111.00' });
  });

  it('an external_id taken while the batch ran (a REST payment at the same moment): the batch goes one by one, that document is a conflict, none is booked twice', async () => {
    await batch(invoiceDocument('RE-A', 'K-1'));
    const [{ id: invoiceId, company_id: companyId }] = await dataSource(app).query(`SELECT id, company_id FROM invoices WHERE external_id = 'RE-A'`);
    await dataSource(app).query(
      `INSERT INTO payments (company_id, id, invoice_id, external_id, amount, payment_date, source, inkasso_payment, created_at, updated_at)
       VALUES ($1, gen_random_uuid(), $2, 'P-2', 3, '2026-11-19', 'API', false, now(), now())`,
      [companyId, invoiceId],
    );
    // The batch's lookup does not see it: as when the REST payment commits between lookup and insert.
    const ledger = app.get(LedgerRepository);
    const lookup = ledger.lookupMany.bind(ledger);
    jest.spyOn(ledger, 'lookupMany').mockImplementation(async (wanted, manager) => (await lookup(wanted, manager)).map((found) => ({ ...found, entry: null })));
    const ids = await batch(payment('P-1', 'RE-A', '10.00'), payment('P-2', 'RE-A', '20.00'), payment('P-3', 'RE-A', '30.00'));
    expect(await waitForStatus(app, auth, ids[1], ['dead_lettered'])).toMatchObject({ last_error: expect.stringMatching(/^payment\.external_id_taken/) });
    for (const i of [0, 2]) await waitForStatus(app, auth, ids[i], ['processed']);
    const payments = await dataSource(app).query(`SELECT external_id, amount::text AS amount FROM payments ORDER BY external_id`);
    expect(payments).toEqual([
      { external_id: 'P-1', amount: '10.00' },
      { external_id: 'P-2', amount: '3.00' },
      { external_id: 'P-3', amount: '30.00' },
    ]);
    expect(await invoice('RE-A')).toMatchObject({ paid: '43.00', open: '76.00' });
  });
});
