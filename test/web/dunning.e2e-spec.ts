// The dunning pages over HTTP: the proposal of a date (grouped, with charges, changing nothing), approving
// and rejecting what waits, the preview that creates nothing, runs started from the page (trigger "web"),
// the policy form with the API's validation beside the field, the base rate table, tenancy and CSRF.
import request from 'supertest';
import { halfYearStart } from '../../src/dunning/base-rates.repository.js';
import { todayIn } from '../../src/common/calendar-date.js';
import { DunningHarness, LEGAL_DETAILS } from '../support/dunning.js';
import { invoiceSuiteConfig } from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { useTestApp } from '../support/use-test-app.js';
import { csrfOf, registerUser, signIn, type WebUser } from './web-support.js';

/** The daily run's time in the tests' policies: the scheduler (real clock) does not run today meanwhile. */
const LATE = '23:59';

describe('dunning pages (HTTP)', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-dunning'));
  let d: DunningHarness;
  let user: WebUser;
  let browser: ReturnType<typeof request.agent>;

  beforeEach(async () => {
    user = await registerUser(t.app, 'Mahn GmbH');
    d = new DunningHarness(t.app);
    d.company = user.company;
    // The harness's invoice PDF, made by its reset() otherwise (the company here is the web user's).
    Object.assign(d, { pdf: await makePdf('Rechnung') });
    await d.api().patch('/api/v1/shipping_settings').send(LEGAL_DETAILS).expect(200);
    d.customerId = await d.newCustomer();
    browser = request.agent(t.app.getHttpServer());
    await signIn(browser, user.email);
  });

  const post = async (path: string, form: Record<string, string | string[]>, from = '/dunning') => {
    const page = await browser.get(from).expect(200);
    return browser
      .post(path)
      .type('form')
      .send({ _csrf: csrfOf(page.text), ...form });
  };

  it('sends a signed-out visitor to sign in and refuses a form without its CSRF token', async () => {
    const res = await request(t.app.getHttpServer()).get('/dunning').expect(303);
    expect(res.headers.location).toBe('/sign-in?next=%2Fdunning');
    await browser.post('/dunning/runs').type('form').send({ date: '2026-01-17' }).expect(403);
    expect((await d.api().get('/api/v1/dunning_runs').expect(200)).body.dunning_runs).toHaveLength(0);
  });

  it('shows the proposal of a date grouped by customer with each reminder’s charges, and changes nothing', async () => {
    await d.policy({ run_at: LATE, levels: [{ fee: '5.00' }, {}, {}] });
    const other = await d.newCustomer();
    const a = await d.sentInvoice('2026-01-02', '100.00', { invoice_number: 'RE-A' });
    const b = await d.sentInvoice('2026-01-03', '200.00', { invoice_number: 'RE-B' }, other);
    const before = [await d.statusOf(a), await d.statusOf(b)];
    const page = await browser.get('/dunning?date=2026-01-17').expect(200);
    expect(page.text).toContain('Was ein Mahnlauf zum 17.01.2026 täte');
    expect(page.text).toMatch(/data-invoice="[^"]+"[\s\S]*RE-A/);
    expect(page.text).toContain('RE-B');
    expect(page.text).toContain('5,00');
    expect([await d.statusOf(a), await d.statusOf(b)]).toEqual(before);
    // The stage and customer filters.
    const filtered = await browser.get(`/dunning?date=2026-01-17&customer=${other}`).expect(200);
    expect(filtered.text).toContain('RE-B');
    expect(filtered.text).not.toContain('RE-A');
    const bad = await browser.get('/dunning?date=32.13.2026&stage=9').expect(400);
    expect(bad.text).toMatch(/id="date-error"[^>]*>Bitte ein Datum/);
    expect(bad.text).toMatch(/id="stage-error"/);
  });

  it('approves only the selected reminders, rejects others back to where they were, and previews without creating', async () => {
    await d.policy({ auto_ship: false, run_at: LATE, levels: [{ fee: '5.00' }, {}, {}] });
    const ids = [
      await d.sentInvoice('2026-01-08', '100.00', { invoice_number: 'RE-1' }),
      await d.sentInvoice('2026-01-09', '100.00', { invoice_number: 'RE-2' }),
      await d.sentInvoice('2026-01-10', '200.00', { invoice_number: 'RE-3' }),
    ];
    await d.run('2026-01-17');
    const before = await Promise.all(ids.map((id) => d.statusOf(id)));
    expect(before).toEqual(['ready_for_reminder1', 'ready_for_reminder1', 'ready_for_reminder1']);
    const page = await browser.get('/dunning?date=2026-01-18').expect(200);
    expect(page.text).toContain('Zur Freigabe vorgelegt');
    expect(page.text).toMatch(/data-about-to-send[^>]*>Werden alle angezeigten freigegeben, gehen 3 Mahnungen mit 15,00/);

    const preview = await browser.get(`/dunning/preview/${ids[0]}?date=2026-01-18`).expect(200);
    expect(preview.text).toContain('erika@kunde.de');
    expect(preview.text).toContain('RE-1');
    const pdf = await browser.get(`/dunning/preview/${ids[0]}/letter.pdf?date=2026-01-18`).buffer(true).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(
      Buffer.from(pdf.body as Buffer)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect((await d.invoice(ids[0])).reminders).toEqual([]);

    const approved = await post(
      '/dunning/decisions',
      { date: '2026-01-18', decision: 'approve', ids: [ids[0]], shown: ids },
      '/dunning?date=2026-01-18',
    );
    expect(approved.status).toBe(303);
    expect(approved.headers.location).toContain('approved=1');
    expect((await d.invoice(ids[0])).reminders).toHaveLength(1);
    expect((await d.invoice(ids[1])).reminders).toEqual([]);

    const rejected = await post('/dunning/decisions', { date: '2026-01-18', decision: 'reject', ids: [ids[1]], reason: 'Ratenzahlung' });
    expect(rejected.status).toBe(303);
    expect(await d.statusOf(ids[1])).toBe('due');
    expect(await d.statusOf(ids[2])).toBe('ready_for_reminder1');
    const done = await browser.get(rejected.headers.location).expect(200);
    expect(done.text).toContain('1 Mahnungen abgelehnt');

    const none = await post('/dunning/decisions', { date: '2026-01-18', decision: 'approve', shown: [ids[2]] });
    expect(none.status).toBe(422);
    expect(none.text).toContain('Bitte wählen Sie mindestens eine Mahnung aus.');
    expect(await d.statusOf(ids[2])).toBe('ready_for_reminder1');
  });

  it('answers another company’s invoice and run with the 404 page', async () => {
    await d.policy({ auto_ship: false, run_at: LATE });
    const id = await d.sentInvoice('2026-01-08');
    const run = await d.run('2026-01-17');
    const stranger = await registerUser(t.app, 'Fremd GmbH');
    const theirs = request.agent(t.app.getHttpServer());
    await signIn(theirs, stranger.email);
    await theirs.get(`/dunning/preview/${id}?date=2026-01-18`).expect(404);
    await theirs.get(`/dunning/runs/${run.id}`).expect(404);
    const page = await theirs.get('/dunning').expect(200);
    const res = await theirs
      .post('/dunning/decisions')
      .type('form')
      .send({ _csrf: csrfOf(page.text), date: '2026-01-18', decision: 'reject', ids: [id] });
    expect(res.status).toBe(404);
    expect(await d.statusOf(id)).toBe('ready_for_reminder1');
  });

  it('starts a run from the page, recorded with the trigger "web", and lists it with the invoices it touched', async () => {
    const id = await d.sentInvoice('2026-01-08', '100.00', { invoice_number: 'RE-9' });
    const res = await post('/dunning/runs', { date: '2026-01-17' }, '/dunning/runs');
    expect(res.status).toBe(303);
    const runId = /\/dunning\/runs\/(run-[^?]+)\?started=1$/.exec(res.headers.location)?.[1];
    expect(runId).toBeDefined();
    const api = (await d.api().get(`/api/v1/dunning_runs/${runId}`).expect(200)).body.dunning_run;
    expect(api.trigger).toBe('web');
    const page = await browser.get(res.headers.location).expect(200);
    expect(page.text).toContain('Mahnlauf gestartet.');
    expect(page.text).toContain('data-trigger="web"');
    expect(page.text).toContain(`href="/invoices/${id}"`);
    const list = await browser.get('/dunning/runs').expect(200);
    expect(list.text).toContain(`data-run="${runId}"`);
    const bad = await post('/dunning/runs', { date: 'gestern' }, '/dunning/runs');
    expect(bad.status).toBe(400);
  });

  it('saves the policy form, and shows the API’s validation beside the field, in German, without saving', async () => {
    const form = await browser.get('/dunning/policy').expect(200);
    for (const name of [
      'grace_days',
      'collection_days',
      'auto_ship',
      'run_at',
      'default_interest',
      'default_starts',
      'business_flat_fee',
    ]) {
      expect(form.text).toContain(`name="${name}"`);
    }
    expect(form.text).toContain('name="levels[2][payment_term_days]"');
    const bad = await post('/dunning/policy', { grace_days: '500', run_at: '06:00', 'levels[0][fee]': 'abc' }, '/dunning/policy');
    expect(bad.status).toBe(422);
    expect(bad.text).toMatch(/id="grace_days-error"[^>]*>Bitte geben Sie höchstens 90 an\./);
    expect(bad.text).toMatch(/id="levels-0-fee-error"[^>]*>Bitte geben Sie einen Betrag ab 0 mit höchstens zwei Nachkommastellen an/);
    expect(bad.text).toContain('value="500"');
    expect((await d.api().get('/api/v1/dunning_policy').expect(200)).body.dunning_policy.grace_days).not.toBe(500);
    const levels = { 'levels[0][fee]': '2,50', 'levels[1][fee]': '5', 'levels[2][fee]': '7.5' };
    const ok = await post('/dunning/policy', { grace_days: '4', auto_ship: 'false', run_at: '07:30', ...levels }, '/dunning/policy');
    expect(ok.status).toBe(303);
    const policy = (await d.api().get('/api/v1/dunning_policy').expect(200)).body.dunning_policy;
    expect(policy).toMatchObject({ grace_days: 4, auto_ship: false, run_at: '07:30' });
    expect(policy.levels.map((level: { fee: string }) => level.fee)).toEqual(['2.5', '5.0', '7.5']);
    const saved = await browser.get(ok.headers.location).expect(200);
    expect(saved.text).toContain('Die Mahnregeln sind gespeichert.');
    expect(saved.text).toMatch(/name="grace_days" type="number" value="4"/);
  });

  it('lists the base rates, warns of a missing current half-year with the CLI command, and adds it by the form', async () => {
    const current = halfYearStart(todayIn('Europe/Berlin'));
    const saved: Array<{ rate: string }> = await t.db.query(`SELECT rate::text AS rate FROM base_interest_rates WHERE valid_from = $1`, [
      current,
    ]);
    await t.db.query(`DELETE FROM base_interest_rates WHERE valid_from = $1`, [current]);
    try {
      const page = await browser.get('/dunning/base-rates').expect(200);
      expect(page.text).toContain('data-banner="missing-base-rate"');
      expect(page.text).toContain(`npm run cli -- base-rate:set --from ${current}`);
      expect(page.text).toContain('data-valid-from="2026-01-01"');
      const bad = await post('/dunning/base-rates', { valid_from: '2026-03-01', rate: '1,234' }, '/dunning/base-rates');
      expect(bad.status).toBe(422);
      expect(bad.text).toMatch(/id="valid_from-error"/);
      expect(bad.text).toMatch(/id="rate-error"/);
      const known = await post('/dunning/base-rates', { valid_from: '2026-01-01', rate: '9' }, '/dunning/base-rates');
      expect(known.status).toBe(409);
      const ok = await post('/dunning/base-rates', { valid_from: current, rate: '1,27' }, '/dunning/base-rates');
      expect(ok.status).toBe(303);
      const after = await browser.get(ok.headers.location).expect(200);
      expect(after.text).not.toContain('data-banner="missing-base-rate"');
      const rows = await t.db.query(
        `SELECT valid_from::text AS d, rate::text AS r FROM base_interest_rates WHERE valid_from IN ($1, '2026-01-01')`,
        [current],
      );
      expect(rows).toEqual(
        expect.arrayContaining([
          { d: current, r: '1.27' },
          { d: '2026-01-01', r: '1.27' },
        ]),
      );
    } finally {
      await t.db.query(`DELETE FROM base_interest_rates WHERE valid_from = $1`, [current]);
      if (saved.length) await t.db.query(`INSERT INTO base_interest_rates (valid_from, rate) VALUES ($1, $2)`, [current, saved[0].rate]);
    }
  });
});
