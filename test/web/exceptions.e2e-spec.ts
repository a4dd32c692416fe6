// The exception pages over HTTP: shipments needing attention (retry, fix and retry), the push
// documents, dead letters (replay, discard with a reason) and audit log, invoices blocked for dunning.
// Each list is the API's list; bad input is a 4xx page that changed nothing; another company's id is the 404 page.
import request from 'supertest';
import { api as restApi, createContact, createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { apiKeyAuth, pushAccepted, quickPush, waitForStatus } from '../support/push.js';
import { shippingTestConfig } from '../support/shipping.js';
import type { TestCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';
import { csrfOf, registerUser, signIn, type WebUser } from './web-support.js';

const ids = (html: string, attribute: string) => [...html.matchAll(new RegExp(`${attribute}="([^"]+)"`, 'g'))].map((m) => m[1]);

describe('web app: exceptions (HTTP)', () => {
  const t = useTestApp(() => ({ ...invoiceSuiteConfig('web-exceptions'), ...quickPush({ retryLimit: 0 }), ...shippingTestConfig() }));

  async function signedIn(user?: WebUser) {
    const who = user ?? (await registerUser(t.app));
    const agent = request.agent(t.app.getHttpServer());
    expect((await signIn(agent, who.email)).status).toBe(303);
    const rest = restApi(t.app, who.company);
    /** The push API (/v2) with the company's API key. */
    const v2 = (path: string) => request(t.app.getHttpServer()).get(path).set('Authorization', apiKeyAuth(who.company.apiKey));
    return { user: who, agent, rest, v2 };
  }

  /** Two invoices sent automatically to a customer whose only contact has no e-mail address: both flagged. */
  async function flagged(company: TestCompany) {
    await restApi(t.app, company)
      .patchForm('/api/v1/shipping_settings', {
        sender_street: 'Hauptstraße 5',
        sender_zip: '10115',
        sender_city: 'Berlin',
        sender_email: 'buchhaltung@muster-handel.de',
        bank_iban: 'DE89 3704 0044 0532 0130 00',
        bank_bic: 'COBADEFFXXX',
        bank_name: 'Commerzbank',
      })
      .expect(200);
    const customer = await createCustomer(t.app, company, { name: 'Kunde ohne Mail AG', shipping_mode: 'email' });
    const contact = await createContact(t.app, company, customer.id as string, { name: 'Erika Muster' });
    const invoices = invoiceApi(t.app, company);
    const made = [];
    for (const number of ['RE-1', 'RE-2']) {
      made.push(
        await invoices.createOk({
          customer_id: customer.id as string,
          contact_id: contact.id as string,
          invoice_number: number,
          total: '119',
          invoice_date: '2026-11-02',
          due_date: '2026-11-16',
          'options[autosend]': 'true',
        }),
      );
    }
    return { customer, contact, invoices: made };
  }

  const attention = async (rest: ReturnType<typeof restApi>) =>
    (await rest.get('/api/v1/shipments/attention').expect(200)).body.shipments as Array<{ id: string; invoice_id: string }>;

  it('sends a signed-out visitor of every page to sign in', async () => {
    for (const path of ['/exceptions/shipments', '/exceptions/blocked', '/push/documents', '/push/dead-letters', '/push/audit-log']) {
      const res = await t.http.get(path).expect(303);
      expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`);
    }
  });

  it('lists the shipments needing attention as the API does, grouped by reason; a retry that cannot succeed changes nothing', async () => {
    const { user, agent, rest } = await signedIn();
    await flagged(user.company);
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
    const { user, agent, rest } = await signedIn();
    const { contact, invoices } = await flagged(user.company);
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

  it('fixes the postal address with the customer API’s rules', async () => {
    const { user, agent, rest } = await signedIn();
    const { customer, invoices } = await flagged(user.company);
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
    const owner = await signedIn();
    const { invoices, contact } = await flagged(owner.user.company);
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

    const stranger = await signedIn();
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

  describe('push', () => {
    /** A payment for an invoice that does not exist yet: dead-lettered after its one attempt (no retries here). */
    async function deadLetter(user: WebUser, externalId: string, invoice = 'RE-P1') {
      const auth = apiKeyAuth(user.company.apiKey);
      const id = await pushAccepted(t.app, auth, {
        document_type: 'payment',
        external_id: externalId,
        amount: '50.00',
        invoice_external_id: invoice,
        payment_date: '2026-11-20',
      });
      await waitForStatus(t.app, auth, id, ['dead_lettered']);
      return { id, auth };
    }

    it('lists documents, dead letters and the audit log as the API does, and a document with its attempts and last error', async () => {
      const { user, agent, v2 } = await signedIn();
      const { id } = await deadLetter(user, 'Z-1');
      await deadLetter(user, 'Z-2');
      const docs = (await v2('/v2/documents').expect(200)).body.documents as Array<{ id: string }>;
      expect(ids((await agent.get('/push/documents').expect(200)).text, 'data-document')).toEqual(docs.map((d) => d.id));
      const dead = (await v2('/v2/dead_letters').expect(200)).body.dead_letters as Array<{ id: string }>;
      expect(ids((await agent.get('/push/documents?status=dead_lettered').expect(200)).text, 'data-document')).toEqual(
        dead.map((d) => d.id),
      );
      expect(ids((await agent.get('/push/dead-letters').expect(200)).text, 'data-document')).toEqual(dead.map((d) => d.id));
      expect(ids((await agent.get('/push/documents?external_id=z-1').expect(200)).text, 'data-document')).toEqual([id]);

      const log = (await v2('/v2/audit_log?step=failed').expect(200)).body.audit_log as Array<{ id: string }>;
      expect(ids((await agent.get('/push/audit-log?step=failed').expect(200)).text, 'data-audit')).toEqual(log.map((e) => e.id));
      const all = (await v2('/v2/audit_log?document_type=payment&external_id=Z-2').expect(200)).body.audit_log as Array<{ id: string }>;
      expect(ids((await agent.get('/push/audit-log?document_type=payment&external_id=Z-2').expect(200)).text, 'data-audit')).toEqual(
        all.map((e) => e.id),
      );
      expect(ids((await agent.get('/push/audit-log?from=2001-01-01&to=2001-12-31').expect(200)).text, 'data-audit')).toEqual([]);
      expect((await agent.get('/push/audit-log?from=31.02.2026').expect(400)).text).toContain('Ein Filter ist ungültig: from.');

      const one = await agent.get(`/push/documents/${id}`).expect(200);
      expect(one.text).toContain('data-attempts>1<');
      expect(one.text).toMatch(/data-last-error>invoice\.not_found: [^<]+RE-P1/);
      expect(one.text).toContain('Als Dead Letter abgelegt');
    });

    it('replays selected dead letters with the web user in the audit log, and they are processed', async () => {
      const { user, agent, v2 } = await signedIn();
      const { id, auth } = await deadLetter(user, 'Z-3');
      const customer = await createCustomer(t.app, user.company);
      await invoiceApi(t.app, user.company).createOk({
        customer_id: customer.id as string,
        external_id: 'RE-P1',
        total: '119',
        invoice_date: '2026-11-02',
        due_date: '2026-11-16',
        'options[autoskip_shipping]': 'true',
      });
      const page = await agent.get('/push/dead-letters').expect(200);
      const res = await agent
        .post('/push/dead-letters/replay')
        .type('form')
        .send({ _csrf: csrfOf(page.text), document: [id], back: '/push/dead-letters' })
        .expect(303);
      expect(res.headers.location).toBe('/push/dead-letters');
      expect((await agent.get('/push/dead-letters').expect(200)).text).toContain('1 Dokument wurde erneut eingereiht.');
      expect(await waitForStatus(t.app, auth, id, ['processed'])).toMatchObject({ outcome: 'applied', result: { type: 'payment' } });
      const replayed = (await v2(`/v2/audit_log?document_id=${id}&step=replayed`).expect(200)).body.audit_log;
      expect(replayed).toEqual([expect.objectContaining({ credential: { type: 'user', id: expect.stringMatching(/^usr-/) } })]);
    });

    it('discards a dead letter only with a reason, and keeps it in the audit log', async () => {
      const { user, agent, v2 } = await signedIn();
      const { id } = await deadLetter(user, 'Z-4');
      const page = await agent.get('/push/dead-letters').expect(200);
      const csrf = csrfOf(page.text);
      const refused = await agent.post(`/push/dead-letters/${id}/discard`).type('form').send({ _csrf: csrf, reason: '   ' }).expect(422);
      expect(refused.text).toContain('Bitte geben Sie einen Grund an');
      expect((await v2(`/v2/documents/${id}`).expect(200)).body.document.status).toBe('dead_lettered');
      await agent
        .post(`/push/dead-letters/${id}/discard`)
        .type('form')
        .send({ _csrf: csrf, reason: 'von Hand gebucht', back: `/push/documents/${id}` })
        .expect(303);
      expect((await v2(`/v2/documents/${id}`).expect(200)).body.document).toMatchObject({
        status: 'discarded',
        discard_reason: 'von Hand gebucht',
      });
      const discarded = await agent.get(`/push/audit-log?step=discarded`).expect(200);
      expect(discarded.text).toContain('von Hand gebucht');
      expect(discarded.text).toContain('Benutzer');
      // No longer a dead letter: another replay or discard is the 404 page.
      await agent.post(`/push/dead-letters/${id}/discard`).type('form').send({ _csrf: csrf, reason: 'nochmal' }).expect(404);
    });

    it("answers another company's document with the 404 page and cannot replay or discard it", async () => {
      const owner = await signedIn();
      const { id } = await deadLetter(owner.user, 'Z-5');
      const stranger = await signedIn();
      expect((await stranger.agent.get(`/push/documents/${id}`).expect(404)).text).toContain('Seite nicht gefunden');
      const page = await stranger.agent.get('/push/dead-letters').expect(200);
      expect(ids(page.text, 'data-document')).toEqual([]);
      const csrf = csrfOf(page.text);
      await stranger.agent.post('/push/dead-letters/replay').type('form').send({ _csrf: csrf, document: id }).expect(404);
      await stranger.agent.post(`/push/dead-letters/${id}/discard`).type('form').send({ _csrf: csrf, reason: 'fremd' }).expect(404);
      expect((await owner.v2(`/v2/documents/${id}`).expect(200)).body.document.status).toBe('dead_lettered');
    });
  });

  it('lists the invoices blocked for dunning with reason and end date, linking to each', async () => {
    const { user, agent, rest } = await signedIn();
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

    const stranger = await signedIn();
    expect(ids((await stranger.agent.get('/exceptions/blocked').expect(200)).text, 'data-invoice')).toEqual([]);
    expect((await agent.get('/exceptions/blocked?page=0').expect(400)).text).toContain('Ein Filter ist ungültig: page.');
  });
});
