// The push pages over HTTP: documents, a document's attempts and last error, the dead-letter queue
// (replay, discard with a reason) and the audit log. Each list is the API's list; bad input is a 4xx
// page that changed nothing; another company's document is the 404 page.
import { createCustomer } from '../support/factories.js';
import { invoiceApi } from '../support/invoice-factories.js';
import { apiKeyAuth, pushAccepted, waitForStatus } from '../support/push.js';
import { useTestApp } from '../support/use-test-app.js';
import { exceptionsConfig, ids, signedIn } from './exceptions-support.js';
import { csrfOf, type WebUser } from './web-support.js';

describe('web app: push pages (HTTP)', () => {
  const t = useTestApp(() => exceptionsConfig('web-exceptions-push'));
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
    const { user, agent, v2 } = await signedIn(t.app);
    const { id } = await deadLetter(user, 'Z-1');
    await deadLetter(user, 'Z-2');
    const docs = (await v2('/v2/documents').expect(200)).body.documents as Array<{ id: string }>;
    expect(ids((await agent.get('/push/documents').expect(200)).text, 'data-document')).toEqual(docs.map((d) => d.id));
    const dead = (await v2('/v2/dead_letters').expect(200)).body.dead_letters as Array<{ id: string }>;
    expect(ids((await agent.get('/push/documents?status=dead_lettered').expect(200)).text, 'data-document')).toEqual(dead.map((d) => d.id));
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
    const { user, agent, v2 } = await signedIn(t.app);
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
    const { user, agent, v2 } = await signedIn(t.app);
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
    const owner = await signedIn(t.app);
    const { id } = await deadLetter(owner.user, 'Z-5');
    const stranger = await signedIn(t.app);
    expect((await stranger.agent.get(`/push/documents/${id}`).expect(404)).text).toContain('Seite nicht gefunden');
    const page = await stranger.agent.get('/push/dead-letters').expect(200);
    expect(ids(page.text, 'data-document')).toEqual([]);
    const csrf = csrfOf(page.text);
    await stranger.agent.post('/push/dead-letters/replay').type('form').send({ _csrf: csrf, document: id }).expect(404);
    await stranger.agent.post(`/push/dead-letters/${id}/discard`).type('form').send({ _csrf: csrf, reason: 'fremd' }).expect(404);
    expect((await owner.v2(`/v2/documents/${id}`).expect(200)).body.document.status).toBe('dead_lettered');
  });
});
