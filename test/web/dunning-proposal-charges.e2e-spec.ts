// The workbench's proposal in approval mode: a run there issues no reminder (they wait for approval),
// yet the proposal names each one's fee and the sums, as approving on that date would charge them.
// The API's proposal stays as it was: its reminders are the ones the run itself would issue.
import request from 'supertest';
import { DunningHarness, LEGAL_DETAILS } from '../support/dunning.js';
import { invoiceSuiteConfig } from '../support/invoice-factories.js';
import { makePdf } from '../support/pdf.js';
import { useTestApp } from '../support/use-test-app.js';
import { registerUser, signIn } from './web-support.js';

describe('dunning workbench: the charges of a proposal in approval mode', () => {
  const t = useTestApp(() => invoiceSuiteConfig('web-dunning-charges'));

  it('shows each proposed reminder’s fee and the sums, and writes nothing', async () => {
    const user = await registerUser(t.app, 'Freigabe GmbH');
    const d = new DunningHarness(t.app);
    d.company = user.company;
    Object.assign(d, { pdf: await makePdf('Rechnung') });
    await d.api().patch('/api/v1/shipping_settings').send(LEGAL_DETAILS).expect(200);
    d.customerId = await d.newCustomer();
    await d.policy({ auto_ship: false, run_at: '23:59', levels: [{ fee: '7.50' }, {}, {}] });
    const ids = [
      await d.sentInvoice('2026-01-02', '100.00', { invoice_number: 'RE-F1' }),
      await d.sentInvoice('2026-01-03', '200.00', { invoice_number: 'RE-F2' }),
    ];
    const browser = request.agent(t.app.getHttpServer());
    await signIn(browser, user.email);

    const page = await browser.get('/dunning?date=2026-01-20').expect(200);
    // Nothing waits for approval yet: every amount on the page is the proposal's.
    const proposal = page.text.slice(page.text.indexOf('id="proposal-h"'));
    expect(proposal).toMatch(/RE-F1[\s\S]*7,50\s€/);
    expect(proposal).toMatch(/RE-F2[\s\S]*7,50\s€/);
    // The two fees add up in the proposal's total row.
    expect(proposal).toMatch(/15,00\s€/);

    expect(await Promise.all(ids.map((id) => d.statusOf(id)))).toEqual(['sent', 'sent']);
    const api = await d.api().get('/api/v1/dunning/proposal?date=2026-01-20').expect(200);
    expect(api.body.proposal.reminders).toEqual([]);
    expect((await d.api().get('/api/v1/dunning_runs').expect(200)).body.dunning_runs).toHaveLength(0);
  });
});
