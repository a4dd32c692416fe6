// The ERP connection pages over HTTP: created through the form with each auth method, secrets never in
// the HTML and kept by an edit that leaves them empty, the API's validation beside the field, a member
// reads but cannot change anything, another company's id is the 404 page, the failed pulls list counts
// what the dashboard counts, and the run's progress fragment stops polling once the run has ended.
import { erpApi, erpTestConfig, runPull } from '../support/erp.js';
import { CLIENT_KEY_PASSPHRASE, type ErpPki, makeErpPki } from '../support/pki.js';
import { useTestApp } from '../support/use-test-app.js';
import { NeedsYouRepository } from '../../src/web/dashboard/needs-you.repository.js';
import { ids, signedIn } from './exceptions-support.js';
import { addUser } from './roles-support.js';
import { seedNeedsYou } from './dashboard-seed.js';
import { csrfOf } from './web-support.js';

const SECRET = 'Sehr-Geheim-42!';
/** Nothing listens there: a pull fails at once. */
const NOWHERE = 'https://127.0.0.1:9';

describe('web app: ERP connections (HTTP)', () => {
  const t = useTestApp(() => erpTestConfig());
  let pki: ErpPki;
  beforeAll(() => {
    pki = makeErpPki();
  });
  afterAll(() => pki.remove());

  type Agent = Awaited<ReturnType<typeof signedIn>>['agent'];
  /** Posts the form with the CSRF token of the page `from`; expects `status`. */
  const post = async (agent: Agent, path: string, form: Record<string, unknown>, status: number, from = '/integrations/erp') => {
    const page = await agent.get(from);
    const res = await agent
      .post(path)
      .type('form')
      .send({ _csrf: csrfOf(page.text), ...form });
    if (res.status !== status) throw new Error(`POST ${path}: ${res.status}, expected ${status}: ${res.text.slice(0, 2000)}`);
    return res;
  };
  const common = { base_url: NOWHERE, odata_version: 'v2', entities: ['customers', 'receivables'], enabled: 'true', schedule: '' };

  it('sends a signed-out visitor to sign in', async () => {
    for (const path of ['/integrations/erp', '/integrations/erp/new', '/exceptions/erp-pulls']) {
      const res = await t.http.get(path).expect(303);
      expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`);
    }
  });

  it('creates a connection with each auth method; no secret ever appears in the HTML', async () => {
    const { agent, rest } = await signedIn(t.app);
    const forms = [
      { name: 'OAuth', auth_method: 'oauth_client_credentials', token_url: `${NOWHERE}/token`, client_id: 'CC', client_secret: SECRET },
      { name: 'Basic', auth_method: 'basic', username: 'TECH', password: SECRET },
      {
        name: 'X509',
        auth_method: 'x509',
        client_certificate: pki.clientCert,
        private_key: pki.clientKeyEncrypted,
        private_key_passphrase: CLIENT_KEY_PASSPHRASE,
      },
    ];
    for (const form of forms) {
      const res = await post(agent, '/integrations/erp', { ...common, ...form }, 303, `/integrations/erp/new?auth=${form.auth_method}`);
      expect(res.headers.location).toMatch(/^\/integrations\/erp\/erp-[0-9a-f-]{36}$/);
      const page = await agent.get(res.headers.location).expect(200);
      expect(page.text).toContain('Die Verbindung wurde angelegt.');
      expect(page.text).toContain('gesetzt');
      const edit = await agent.get(`${res.headers.location}/edit`).expect(200);
      for (const html of [page.text, edit.text]) {
        expect(html).not.toContain(SECRET);
        expect(html).not.toContain('PRIVATE KEY');
        expect(html).not.toContain(CLIENT_KEY_PASSPHRASE);
      }
    }
    const listed = (await rest.get('/api/v1/erp_connections').expect(200)).body.erp_connections as Array<Record<string, unknown>>;
    expect(listed.map((c) => [c.name, c.auth_method, c.secrets])).toEqual([
      ['OAuth', 'oauth_client_credentials', expect.objectContaining({ client_secret: true })],
      ['Basic', 'basic', expect.objectContaining({ password: true })],
      ['X509', 'x509', expect.objectContaining({ private_key: true, private_key_passphrase: true })],
    ]);
    const list = await agent.get('/integrations/erp').expect(200);
    expect(ids(list.text, 'data-connection')).toEqual(listed.map((c) => c.id));
    expect(list.text).toContain('Neue Verbindung anlegen');
  });

  it('takes the X.509 certificate and key as PEM files (multipart, its CSRF token in a header) and refuses what is not PEM', async () => {
    const { agent, rest } = await signedIn(t.app);
    const form = await agent.get('/integrations/erp/new?auth=x509').expect(200);
    expect(form.text).toContain('enctype="multipart/form-data"');
    expect(form.text).toContain('type="file"');
    const csrf = csrfOf(form.text);
    const upload = () =>
      agent
        .post('/integrations/erp')
        .set('x-csrf-token', csrf)
        .set('HX-Request', 'true')
        .field('name', 'X509 Datei')
        .field('base_url', NOWHERE)
        .field('auth_method', 'x509')
        .field('entities', 'customers')
        .field('entities', 'receivables');
    const notPem = await upload()
      .attach('client_certificate_file', Buffer.from('kein Zertifikat'), 'cert.pem')
      .attach('private_key_file', Buffer.from(pki.clientKey), 'key.pem')
      .expect(422);
    expect(notPem.text).toMatch(/id="f-client_certificate-error"[^>]*>Bitte laden Sie eine PEM-Datei hoch/);
    expect(notPem.text).not.toContain('PRIVATE KEY');
    const big = await upload().attach('client_certificate_file', Buffer.alloc(70_000, 'a'), 'big.pem').expect(422);
    expect(big.text).toContain('Die Datei ist zu groß (höchstens 64 KB).');
    expect((await rest.get('/api/v1/erp_connections').expect(200)).body.erp_connections).toEqual([]);

    const saved = await upload()
      .attach('client_certificate_file', Buffer.from(pki.clientCert), 'cert.pem')
      .attach('private_key_file', Buffer.from(pki.clientKey), 'key.pem')
      .expect(200);
    expect(saved.headers['hx-redirect']).toMatch(/^\/integrations\/erp\/erp-[0-9a-f-]{36}$/);
    const [created] = (await rest.get('/api/v1/erp_connections').expect(200)).body.erp_connections as Array<Record<string, unknown>>;
    expect(created).toMatchObject({ name: 'X509 Datei', auth_method: 'x509', secrets: expect.objectContaining({ private_key: true }) });
    expect(created.client_certificate).not.toBeNull();
    // A multipart form without the header: the CSRF check cannot see a token and refuses it.
    await agent.post('/integrations/erp').field('_csrf', csrf).field('name', 'Ohne Token').expect(403);
  });

  it('keeps the stored secrets when an edit leaves them empty, and previews the next three runs', async () => {
    const { agent, rest } = await signedIn(t.app);
    const created = await post(
      agent,
      '/integrations/erp',
      { ...common, name: 'SAP', auth_method: 'basic', username: 'TECH', password: SECRET },
      303,
    );
    const path = created.headers.location;
    const edit = await agent.get(`${path}/edit`).expect(200);
    expect(edit.text).toContain('Ohne Zeitplan ruft der Dienst nur ab');
    await post(
      agent,
      path,
      { ...common, name: 'SAP Produktion', auth_method: 'basic', username: 'TECH', password: '', schedule: '0 6 * * 1-5' },
      303,
      `${path}/edit`,
    );
    const api = (await rest.get(`/api/v1/erp_connections/${path.split('/').pop()}`).expect(200)).body.erp_connection;
    expect(api).toMatchObject({ name: 'SAP Produktion', secrets: { password: true }, schedule: '0 6 * * 1-5' });
    const again = await agent.get(`${path}/edit`).expect(200);
    expect(again.text).toContain('Die nächsten Abrufe (Europe/Berlin):');
    expect([...again.text.matchAll(/<li>[^<]*06:00<\/li>/g)]).toHaveLength(3);
  });

  it('shows the API’s validation messages beside the fields and stores nothing', async () => {
    const { agent, rest } = await signedIn(t.app);
    const refused = await post(
      agent,
      '/integrations/erp',
      {
        ...common,
        name: 'Falsch',
        base_url: 'http://sap.example.com',
        auth_method: 'basic',
        username: 'TECH',
        password: '',
        schedule: 'jeden Tag',
        sap_client: '1',
      },
      422,
    );
    expect(refused.text).toContain('Die Verbindung wurde nicht gespeichert.');
    expect(refused.text).toContain('id="f-sap_client-error"');
    expect(refused.text).toContain('sap_client must be three digits');
    const bad = await post(
      agent,
      '/integrations/erp',
      {
        ...common,
        name: 'Falsch',
        auth_method: 'basic',
        username: 'TECH',
        password: 'x',
        schedule: 'jeden Tag',
        base_url: 'http://sap.example.com',
      },
      422,
    );
    expect(bad.text).toMatch(/id="f-base_url-error"[^>]*>base_url must use https:\/\//);
    expect(bad.text).toMatch(/id="f-schedule-error"[^>]*>schedule must be a cron expression/);
    expect(bad.text).toContain('Der Zeitplan ist ungültig.');
    expect(bad.text).not.toContain('value="x"');
    const json = await post(
      agent,
      '/integrations/erp',
      { ...common, name: 'JSON', auth_method: 'basic', username: 'T', password: 'x', mapping: '{kein json' },
      422,
    );
    expect(json.text).toMatch(/id="f-mapping-error"[^>]*>Bitte geben Sie ein JSON-Objekt an/);
    expect(json.text).toContain('{kein json');
    expect((await rest.get('/api/v1/erp_connections').expect(200)).body.erp_connections).toEqual([]);
  });

  it('lets a member read the connections but answers 403 to every change and changes nothing', async () => {
    const { user, agent: owner, rest } = await signedIn(t.app);
    const created = await post(
      owner,
      '/integrations/erp',
      { ...common, name: 'SAP', auth_method: 'basic', username: 'TECH', password: SECRET },
      303,
    );
    const path = created.headers.location;
    const { agent } = await signedIn(t.app, await addUser(t.app, user, 'member'));
    const list = await agent.get('/integrations/erp').expect(200);
    expect(list.text).toContain('SAP');
    expect(list.text).not.toContain('Neue Verbindung anlegen');
    const page = await agent.get(path).expect(200);
    expect(page.text).not.toContain('Verbindung testen');
    expect(page.text).not.toContain('Jetzt abrufen');
    for (const form of ['/integrations/erp/new', `${path}/edit`]) {
      expect((await agent.get(form).expect(403)).text).toContain('Nur für Inhaber');
    }
    const posts: Array<[string, Record<string, unknown>]> = [
      ['/integrations/erp', { ...common, name: 'Neu', auth_method: 'basic', username: 'A', password: 'B' }],
      [path, { ...common, name: 'Umbenannt', auth_method: 'basic', username: 'A', password: 'B' }],
      [`${path}/test`, {}],
      [`${path}/pulls`, { mode: 'full' }],
      [`${path}/delete`, {}],
    ];
    for (const [target, form] of posts) {
      expect((await post(agent, target, form, 403, path)).text).toContain('Nur für Inhaber');
    }
    const connections = (await rest.get('/api/v1/erp_connections').expect(200)).body.erp_connections as Array<{ id: string; name: string }>;
    expect(connections.map((c) => c.name)).toEqual(['SAP']);
    expect((await rest.get(`/api/v1/erp_connections/${connections[0].id}/pulls`).expect(200)).body.pull_runs).toEqual([]);
  });

  it('answers another company’s connection and run with the 404 page', async () => {
    const other = await signedIn(t.app);
    const foreign = (
      await erpApi(t.app, other.user.company)
        .create({ name: 'Fremd', base_url: NOWHERE, auth_method: 'basic', username: 'A', password: 'B' })
        .expect(201)
    ).body.erp_connection.id as string;
    const run = await runPull(t.app, other.user.company, foreign);
    const { agent } = await signedIn(t.app);
    const path = `/integrations/erp/${foreign}`;
    for (const target of [path, `${path}/edit`, `${path}/pulls/${run.id as string}`, `${path}/pulls/${run.id as string}/progress`]) {
      expect((await agent.get(target).expect(404)).text).toContain('Seite nicht gefunden');
    }
    await post(agent, `${path}/pulls`, {}, 404);
    await post(agent, `${path}/delete`, {}, 404);
    expect((await erpApi(t.app, other.user.company).get(`/api/v1/erp_connections/${foreign}`).expect(200)).body.erp_connection.name).toBe(
      'Fremd',
    );
  });

  it('lists as many failed pulls as the dashboard seed expects, look-alikes left out', async () => {
    const { user, agent } = await signedIn(t.app);
    const expected = await seedNeedsYou(t.app, user.company);
    const page = await agent.get('/exceptions/erp-pulls').expect(200);
    expect(ids(page.text, 'data-run')).toHaveLength(expected.failedPulls);
  });

  it('lists the failed pulls the dashboard counts, each linking to its run; an ended run’s fragment stops polling', async () => {
    const { user, agent, rest } = await signedIn(t.app);
    const api = erpApi(t.app, user.company);
    const make = async (name: string) =>
      (await api.create({ name, base_url: NOWHERE, auth_method: 'basic', username: 'A', password: 'B' }).expect(201)).body.erp_connection
        .id as string;
    const [first, second] = [await make('Erste'), await make('Zweite')];
    const failed = [await runPull(t.app, user.company, first), await runPull(t.app, user.company, second)];
    expect(failed.map((r) => r.status)).toEqual(['failed', 'failed']);
    const today = new Date().toISOString().slice(0, 10);
    const counts = await t.app.get(NeedsYouRepository).counts(user.company.id.slice(user.company.id.indexOf('-') + 1), today);
    const page = await agent.get('/exceptions/erp-pulls').expect(200);
    expect(ids(page.text, 'data-run').sort()).toEqual(failed.map((r) => r.id as string).sort());
    expect(counts.failedPulls).toBe(2);
    expect(page.text).toContain(`href="/integrations/erp/${first}/pulls/${failed[0].id as string}"`);
    const dashboard = await agent.get('/dashboard').expect(200);
    expect(dashboard.text).toContain('href="/exceptions/erp-pulls"');

    // A new run that is only queued: the fragment polls; the connection no longer counts as failed.
    const queued = (await rest.postJson(`/api/v1/erp_connections/${first}/pulls`, {}).expect(202)).body.pull_run;
    const polling = await agent.get(`/integrations/erp/${first}/pulls/${queued.id as string}/progress`).expect(200);
    expect(polling.text).toContain('hx-trigger="every 2s"');
    expect(ids((await agent.get('/exceptions/erp-pulls').expect(200)).text, 'data-run')).toEqual([failed[1].id]);
    const ended = await agent.get(`/integrations/erp/${second}/pulls/${failed[1].id as string}/progress`).expect(200);
    expect(ended.text).not.toContain('hx-trigger');
    expect(ended.text).toContain('data-status="failed"');
    expect(ended.text).toContain('Grund des Abbruchs');
  });
});
