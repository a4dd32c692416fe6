// The exception pages over HTTP: shipments needing attention (retry, fix and retry) and invoices blocked
// for dunning (the push pages: exceptions-push.e2e-spec.ts). Each list is the API's list; bad input is a
// 4xx page that changed nothing; another company's id is the 404 page.
import type { api as restApi } from '../support/factories.js';
import { createCustomer } from '../support/factories.js';
import { invoiceApi } from '../support/invoice-factories.js';
import { useTestApp } from '../support/use-test-app.js';
import { exceptionsConfig, flagged, ids, signedIn } from './exceptions-support.js';
import { csrfOf } from './web-support.js';

describe('web app: exceptions (HTTP)', () => {
  const t = useTestApp(() => exceptionsConfig('web-exceptions'));

  const attention = async (rest: ReturnType<typeof restApi>) =>
    (await rest.get('/api/v1/shipments/attention').expect(200)).body.shipments as Array<{ id: string; invoice_id: string }>;

  it('sends a signed-out visitor of every page to sign in', async () => {
    for (const path of ['/exceptions/shipments', '/exceptions/blocked', '/push/documents', '/push/dead-letters', '/push/audit-log']) {
      const res = await t.http.get(path).expect(303);
      expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`);
    }
  });

  it('lists the shipments needing attention as the API does, grouped by reason; a retry that cannot succeed changes nothing', async () => {
    const { user, agent, rest } = await signedIn(t.app);
    await flagged(t.app, user.company);
    const api = await attention(rest);
    expect(api).toHaveLength(2);
    const page = await agent.get('/exceptions/shipments').expect(200);
    expect(ids(page.text, 'data-shipment').sort()).toEqual(api.map((s) => s.id).sort());
    expect(ids(page.text, 'data-group')).toEqual(['noEmail']);
    expect(page.text).toContain('Keine E-Mail-Adresse (2 Sendungen)');

    const res = await agent
      .post('/exceptions/shipments/retry')
      .type('form')
      .send({ _csrf: csrfOf(page.text), document: api.map((s) => s.invoice_id) })
      .expect(303);
    expect(res.headers.location).toBe('/exceptions/shipments');
    const after = await agent.get('/exceptions/shipments').expect(200);
    expect(after.text).toContain('Rechnung RE-1: kann noch nicht versendet werden (Keine E-Mail-Adresse)');
    expect(after.text).toContain('Rechnung RE-2: kann noch nicht versendet werden (Keine E-Mail-Adresse)');
    expect((await attention(rest)).map((s) => s.id).sort()).toEqual(api.map((s) => s.id).sort());
  });

  it('fixes the e-mail address in place (the API’s validation) and ships again; then retries the rest', async () => {
    const { user, agent, rest } = await signedIn(t.app);
    const { contact, invoices } = await flagged(t.app, user.company);
    const page = await agent.get('/exceptions/shipments').expect(200);
    const form = { _csrf: csrfOf(page.text), document: invoices[0].id, kind: 'email', contact: contact.id };

    const refused = await agent
      .post('/exceptions/shipments/fix')
      .type('form')
      .send({ ...form, email: 'keine-adresse' })
      .expect(422);
    expect(refused.text).toContain('Bitte geben Sie eine gültige E-Mail-Adresse an.');
    expect(refused.text).toContain('aria-invalid="true"');
    expect((await rest.get(`/api/v1/contacts/${contact.id}`).expect(200)).body.contact.email).toBeNull();
    expect(await attention(rest)).toHaveLength(2);

    await agent
      .post('/exceptions/shipments/fix')
      .type('form')
      .send({ ...form, email: 'erika@kunde.de' })
      .expect(303);
    expect((await rest.get(`/api/v1/contacts/${contact.id}`).expect(200)).body.contact.email).toBe('erika@kunde.de');
    const done = await agent.get('/exceptions/shipments').expect(200);
    expect(done.text).toContain('Die Angaben von Erika Muster wurden gespeichert.');
    expect(done.text).toContain('1 Sendung wurde erneut auf den Weg gebracht.');
    expect((await attention(rest)).map((s) => s.invoice_id)).toEqual([invoices[1].id]);
    const events = (await rest.get(`/api/v1/invoices/${invoices[0].id}/events`).expect(200)).body.events as Array<{
      kind: string;
      actor: { type: string };
    }>;
    expect(events.filter((e) => e.kind === 'shipping_started').map((e) => e.actor.type)).toContain('user');

    // The same contact serves the second invoice: a plain retry now ships it.
    await agent
      .post('/exceptions/shipments/retry')
      .type('form')
      .send({ _csrf: csrfOf(done.text), document: invoices[1].id })
      .expect(303);
    expect(await attention(rest)).toEqual([]);
    expect((await agent.get('/exceptions/shipments').expect(200)).text).toContain('Keine Sendung braucht Ihre Aufmerksamkeit.');
  });

  it('adds a contact with the e-mail address to a customer that has none, and ships again', async () => {
    const { user, agent, rest } = await signedIn(t.app);
    const { customer, invoices } = await flagged(t.app, user.company, false);
    const page = await agent.get('/exceptions/shipments').expect(200);
    expect(page.text).toContain('Name des Ansprechpartners');
    const form = { _csrf: csrfOf(page.text), document: invoices[0].id, kind: 'email', customer: customer.id, email: 'einkauf@kunde.de' };
    const refused = await agent
      .post('/exceptions/shipments/fix')
      .type('form')
      .send({ ...form, name: '' })
      .expect(422);
    expect(refused.text).toContain('Bitte geben Sie einen Namen an (höchstens 255 Zeichen).');
    expect((await rest.get(`/api/v1/customers/${customer.id}`).expect(200)).body.contacts).toEqual([]);

    await agent
      .post('/exceptions/shipments/fix')
      .type('form')
      .send({ ...form, name: 'Einkauf' })
      .expect(303);
    const contacts = (await rest.get(`/api/v1/customers/${customer.id}`).expect(200)).body.contacts as Array<{
      name: string;
      email: string;
    }>;
    expect(contacts).toEqual([expect.objectContaining({ name: 'Einkauf', email: 'einkauf@kunde.de' })]);
    expect((await attention(rest)).map((s) => s.invoice_id)).toEqual([invoices[1].id]);
  });

  it('fixes the postal address with the customer API’s rules', async () => {
    const { user, agent, rest } = await signedIn(t.app);
    const { customer, invoices } = await flagged(t.app, user.company);
    const page = await agent.get('/exceptions/shipments').expect(200);
    const form = {
      _csrf: csrfOf(page.text),
      document: invoices[0].id,
      kind: 'address',
      customer: customer.id,
      address_line1: 'Kunde ohne Mail AG',
      address_line3: 'Neue Straße 1',
      zip: '20095',
      city: 'Hamburg',
    };
    const refused = await agent
      .post('/exceptions/shipments/fix')
      .type('form')
      .send({ ...form, country_code: 'XX', zip: '' })
      .expect(422);
    expect(refused.text).toContain('Bitte geben Sie einen Ländercode nach ISO 3166 an, z. B. DE.');
    expect(refused.text).toContain('Bitte geben Sie die PLZ an (höchstens 20 Zeichen).');
    expect((await rest.get(`/api/v1/customers/${customer.id}`).expect(200)).body.address).not.toContain('Neue Straße 1');

    await agent
      .post('/exceptions/shipments/fix')
      .type('form')
      .send({ ...form, country_code: 'de' })
      .expect(303);
    expect((await rest.get(`/api/v1/customers/${customer.id}`).expect(200)).body.address).toContain('Neue Straße 1');
    // The address was not what stood in the way: the retry is refused with the reason, the flag stays.
    expect((await agent.get('/exceptions/shipments').expect(200)).text).toContain('Rechnung RE-1: kann noch nicht versendet werden');
    expect(await attention(rest)).toHaveLength(2);
  });

  it('refuses bad input with a message and keeps companies apart', async () => {
    const owner = await signedIn(t.app);
    const { invoices, contact } = await flagged(t.app, owner.user.company);
    const page = await owner.agent.get('/exceptions/shipments').expect(200);
    const csrf = csrfOf(page.text);
    expect((await owner.agent.post('/exceptions/shipments/retry').type('form').send({ _csrf: csrf }).expect(422)).text).toContain(
      'Bitte wählen Sie mindestens eine Sendung aus.',
    );
    expect(
      (await owner.agent.post('/exceptions/shipments/retry').type('form').send({ _csrf: csrf, document: 'inv-nope' }).expect(400)).text,
    ).toContain('Die Auswahl ist ungültig.');
    await owner.agent.post('/exceptions/shipments/retry').type('form').send({ document: invoices[0].id }).expect(403);
    expect((await owner.agent.get('/push/documents?status=kaputt').expect(400)).text).toContain('Ein Filter ist ungültig: status.');

    const stranger = await signedIn(t.app);
    const theirs = await stranger.agent.get('/exceptions/shipments').expect(200);
    expect(ids(theirs.text, 'data-shipment')).toEqual([]);
    const strangerCsrf = csrfOf(theirs.text);
    const foreign = await stranger.agent
      .post('/exceptions/shipments/retry')
      .type('form')
      .send({ _csrf: strangerCsrf, document: invoices[0].id })
      .expect(404);
    expect(foreign.text).toContain('Seite nicht gefunden');
    await stranger.agent
      .post('/exceptions/shipments/fix')
      .type('form')
      .send({ _csrf: strangerCsrf, document: invoices[0].id, kind: 'email', contact: contact.id, email: 'x@y.de' })
      .expect(404);
    expect((await owner.rest.get(`/api/v1/contacts/${contact.id}`).expect(200)).body.contact.email).toBeNull();
    expect(await attention(owner.rest)).toHaveLength(2);
  });

  it('lists the invoices blocked for dunning with reason and end date, linking to each', async () => {
    const { user, agent, rest } = await signedIn(t.app);
    const customer = await createCustomer(t.app, user.company, { name: 'Blockiert GmbH' });
    const invoices = invoiceApi(t.app, user.company);
    const make = (number: string) =>
      invoices.createOk({
        customer_id: customer.id as string,
        invoice_number: number,
        total: '119',
        invoice_date: '2026-11-02',
        due_date: '2026-11-16',
        'options[autoskip_shipping]': 'true',
      });
    const [blocked, lifted, open] = [await make('RE-B1'), await make('RE-B2'), await make('RE-B3')];
    await rest
      .patchJson(`/api/v1/invoices/${blocked.id}`, { dunning_block_reason: 'Reklamation', dunning_block_until: '2999-12-31' })
      .expect(200);
    await rest.patchJson(`/api/v1/invoices/${lifted.id}`, { dunning_block_reason: 'Alt', dunning_block_until: '2020-01-01' }).expect(200);
    const stopped = await createCustomer(t.app, user.company, { name: 'Gestoppt AG', stop_automatic_reminders: 'true' });
    const quiet = await invoices.createOk({
      customer_id: stopped.id as string,
      invoice_number: 'RE-B4',
      total: '50',
      invoice_date: '2026-11-02',
      due_date: '2026-11-16',
      'options[autoskip_shipping]': 'true',
    });

    const page = await agent.get('/exceptions/blocked').expect(200);
    expect(ids(page.text, 'data-invoice')).toEqual([blocked.id, quiet.id]);
    expect(page.text).toContain('Reklamation');
    expect(page.text).toContain('31.12.2999');
    expect(page.text).toContain(`href="/invoices/${blocked.id}"`);
    expect(page.text).toContain('Beim Kunden sind automatische Mahnungen abgeschaltet');
    expect(page.text).not.toContain(open.id as string);
    const apiBlocked = (
      (await rest.get('/api/v1/invoices').expect(200)).body.invoices as Array<{
        id: string;
        dunning_block: { until: string | null } | null;
      }>
    )
      .filter((i) => i.dunning_block && (!i.dunning_block.until || i.dunning_block.until >= '2026-01-01'))
      .map((i) => i.id);
    expect(ids(page.text, 'data-invoice')).toEqual(expect.arrayContaining(apiBlocked));

    const stranger = await signedIn(t.app);
    expect(ids((await stranger.agent.get('/exceptions/blocked').expect(200)).text, 'data-invoice')).toEqual([]);
    expect((await agent.get('/exceptions/blocked?page=0').expect(400)).text).toContain('Ein Filter ist ungültig: page.');
  });
});
