// Never remind what the ERP already cleared (issue 16): before a reminder for an ERP-pulled invoice is
// created and again before it is shipped, the ERP is asked about exactly those items, in one request per
// connection. A clearing the incremental pull missed (back-dated) is booked and the reminder skipped; an
// ERP that cannot be reached holds the reminders back, unless the policy says to send anyway.
import request from 'supertest';
import { api as restApi, type Json } from '../support/factories.js';
import { LEGAL_DETAILS, waitFor } from '../support/dunning.js';
import { connectionBody, erpApi, erpTestConfig, runPull, sapItem, sapPartner, TECH_PASSWORD, TECH_USER } from '../support/erp.js';
import { type ErpPki, makeErpPki } from '../support/pki.js';
import { ITEMS_PATH, SapODataServer } from '../support/sap-odata-server.js';
import { useTestApp } from '../support/use-test-app.js';

let pki: ErpPki;
const t = useTestApp(erpTestConfig(), { company: true });
const servers: SapODataServer[] = [];

beforeAll(() => {
  pki = makeErpPki();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});
afterAll(() => pki.remove());

const key = (n: number) => `1010-2026-${1_800_000_000 + n}-001`;
const rest = () => restApi(t.app, t.company);
const invoice = async (n: number): Promise<Json> =>
  (
    await rest()
      .get(`/api/v1/invoices/find/${key(n)}`)
      .expect(200)
  ).body.invoice;
const events = async (id: string): Promise<Json[]> => (await rest().get(`/api/v1/invoices/${id}/events`).expect(200)).body.events;
const run = async (date: string): Promise<Json> => (await rest().postJson('/api/v1/dunning_runs', { date }).expect(201)).body.dunning_run;
const policy = (body: Json) =>
  request(t.app.getHttpServer()).put('/api/v1/dunning_policy').set('Authorization', t.company.auth).send(body).expect(200);
/** The item cube requests a dunning run made (X-Request-ID prefix run-…; a shipment's start with rem-). */
const runRequests = (server: SapODataServer) =>
  server.requests.filter((r) => r.url.startsWith(ITEMS_PATH) && String(r.headers['x-request-id']).startsWith('run-'));
const filterOf = (url: string) => new URL(url, 'https://erp.invalid').searchParams.get('$filter') ?? '';

/** An ERP with open items due 14.02.2026, pulled into the company, reminders by e-mail. */
async function erpWith(items: number[]): Promise<SapODataServer> {
  const server = new SapODataServer({ pki, version: 'v2', auth: 'basic', username: TECH_USER, password: TECH_PASSWORD });
  server.partners = [sapPartner('17100001')];
  server.items = items.map((n) => sapItem(n));
  servers.push(await server.start());
  // The company's legal details are complete: the run's warnings are the ERP's alone.
  await rest().patchJson('/api/v1/shipping_settings', LEGAL_DETAILS).expect(200);
  const res = await erpApi(t.app, t.company).create(connectionBody(server, pki));
  if (res.status !== 201) throw new Error(`connection not created: ${res.status} ${JSON.stringify(res.body)}`);
  expect(await runPull(t.app, t.company, res.body.erp_connection.id)).toMatchObject({ status: 'succeeded' });
  for (const n of items)
    await rest()
      .patchJson(`/api/v1/invoices/${(await invoice(n)).id}`, { shipping_mode: 'email' })
      .expect(200);
  return server;
}

function clear(server: SapODataServer, n: number, document: string, on: string, changed?: string): void {
  const item = server.items.find((i) => i.AccountingDocument === String(1_800_000_000 + n))!;
  Object.assign(
    item,
    { IsCleared: true, ClearingDate: on, ClearingAccountingDocument: document },
    changed ? { LastChangeDate: changed } : {},
  );
  server.touch();
}

describe('before a reminder, the ERP is asked whether it cleared the item', () => {
  it('books a clearing the incremental pull missed (back-dated) and does not remind it; one request per connection', async () => {
    const erp = await erpWith([1, 2, 4]);
    const other = await erpWith([3]);
    const connectionId = (await erpApi(t.app, t.company).get('/api/v1/erp_connections').expect(200)).body.erp_connections[0].id;
    // A pull books item 4's clearing of 25.01.: the clearing watermark moves there.
    clear(erp, 4, '1400000001', '2026-01-25', '2026-01-25');
    expect(await runPull(t.app, t.company, connectionId)).toMatchObject({ mode: 'incremental', counts: { clearings: { payments: 1 } } });
    // A late bank statement: item 1 cleared with a value date before that watermark.
    clear(erp, 1, '1400000077', '2026-01-05');
    expect(await runPull(t.app, t.company, connectionId)).toMatchObject({ mode: 'incremental', counts: { clearings: { payments: 0 } } });
    expect((await invoice(1)).invoice_status).toBe('sent');

    // Due 14.02., reminder 1 seven days later: the run of 22.02. would remind items 1, 2 and 3.
    const dunningRun = await run('2026-02-22');
    expect(dunningRun).toMatchObject({ status: 'succeeded', reminders_created: 2, errors: [] });

    // Each ERP was asked once, for exactly its own items by key, with IsCleared among the fields.
    expect(runRequests(erp)).toHaveLength(1);
    expect(runRequests(other)).toHaveLength(1);
    const asked = filterOf(runRequests(erp)[0].url);
    expect(asked).toContain("AccountingDocument eq '1800000001'");
    expect(asked).toContain("AccountingDocument eq '1800000002'");
    expect(asked).not.toContain("AccountingDocument eq '1800000003'");
    expect(new URL(runRequests(erp)[0].url, erp.origin).searchParams.get('$select')).toContain('IsCleared');
    expect(filterOf(runRequests(other)[0].url)).toContain("AccountingDocument eq '1800000003'");

    const paid = await invoice(1);
    expect(paid).toMatchObject({ invoice_status: 'paid', open_amount: '0.0', reminders: [] });
    expect(paid.payments).toEqual([
      expect.objectContaining({
        amount: '119.0',
        payment_date: '2026-01-05',
        source: 'ERP',
        external_id: `ERP-CLEARING-1400000077-${key(1)}`,
      }),
    ]);
    expect(await events(paid.id)).toContainEqual(
      expect.objectContaining({
        kind: 'reminder_skipped',
        reason: 'cleared in the ERP by document 1400000077 on 2026-01-05: no reminder',
      }),
    );
    for (const n of [2, 3]) await waitFor(async () => ((await invoice(n)).invoice_status === 'reminder1_sent' ? true : undefined), `${n}`);
    // Before shipping, each reminder's item was asked for once more (X-Request-ID rem-…).
    const shipping = erp.requests.filter((r) => r.url.startsWith(ITEMS_PATH) && String(r.headers['x-request-id']).startsWith('rem-'));
    expect(shipping).toHaveLength(1);
    expect(filterOf(shipping[0].url)).toContain("AccountingDocument eq '1800000002'");

    // The next pull sees the clearing too, and books nothing twice.
    await runPull(t.app, t.company, connectionId, 'full');
    expect((await invoice(1)).payments).toHaveLength(1);
  });

  it('an ERP that cannot be reached holds the reminder back with a warning in the run; the policy can send anyway', async () => {
    const erp = await erpWith([1]);
    erp.faults = [{ kind: 'status', status: 503, match: /A_OperationalAcctgDocItemCube/, times: 1000 }];

    const held = await run('2026-02-22');
    expect(held).toMatchObject({ status: 'succeeded', reminders_created: 0 });
    expect(held.errors).toEqual([
      expect.stringMatching(
        /^warning: ERP connection .* could not be asked whether it cleared 1 invoice\(s\) before its reminder was created: 503 .*; held back until the next run/,
      ),
    ]);
    let open = await invoice(1);
    expect(open).toMatchObject({ invoice_status: 'ready_for_reminder1', reminders: [] });
    expect(await events(open.id)).toContainEqual(
      expect.objectContaining({
        kind: 'reminder_skipped',
        reason: expect.stringMatching(/^the ERP could not be asked whether it cleared the item/),
      }),
    );

    await policy({ send_when_erp_unreachable: true });
    const sent = await run('2026-02-23');
    expect(sent).toMatchObject({ status: 'succeeded', reminders_created: 1 });
    expect(sent.errors).toEqual([expect.stringMatching(/reminded anyway \(dunning policy send_when_erp_unreachable\)$/)]);
    await waitFor(async () => ((await invoice(1)).invoice_status === 'reminder1_sent' ? true : undefined), 'the reminder');
    open = await invoice(1);
    expect(open.reminders).toHaveLength(1);
    const shown = await request(t.app.getHttpServer()).get('/api/v1/dunning_policy').set('Authorization', t.company.auth).expect(200);
    expect(shown.body.dunning_policy.send_when_erp_unreachable).toBe(true);
  });

  it('a clearing between the run and the shipment cancels the reminder before it goes out', async () => {
    const erp = await erpWith([1]);
    // The ERP clears the item after the run asked, before the shipment asks.
    erp.beforeHandle = (target) => {
      if (target.startsWith(ITEMS_PATH) && erp.requests.some((r) => String(r.headers['x-request-id']).startsWith('rem-')))
        clear(erp, 1, '1400000088', '2026-02-22');
    };
    expect(await run('2026-02-22')).toMatchObject({ reminders_created: 1 });
    const paid = await waitFor(async () => {
      const now = await invoice(1);
      return now.invoice_status === 'paid' ? now : undefined;
    }, 'the clearing');
    expect(paid.reminders).toEqual([]);
    expect(paid.payments).toEqual([expect.objectContaining({ external_id: `ERP-CLEARING-1400000088-${key(1)}`, amount: '119.0' })]);
    expect(await events(paid.id)).toContainEqual(
      expect.objectContaining({
        kind: 'reminder_cancelled',
        reason: 'cleared in the ERP by document 1400000088 on 2026-02-22: no reminder',
      }),
    );
  });
});
