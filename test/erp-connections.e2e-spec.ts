// ERP connections over the API: settings checked as a whole, secrets sealed at rest and never answered,
// the SSRF guard, the connection test naming exactly what failed, tenancy, and the background worker.
import type { INestApplication } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { CLIENT_KEY_PASSPHRASE, type ErpPki, makeErpPki } from './support/pki.js';
import { CLIENT_ID, CLIENT_SECRET, connectionBody, erpApi, erpTestConfig, sapItem, sapPartner, TECH_PASSWORD, TECH_USER } from './support/erp.js';
import { SapODataServer, type SapServerOptions } from './support/sap-odata-server.js';
import { dataSource, registerCompany, resetDatabase, startTestApp, type TestCompany } from './support/test-app.js';

let pki: ErpPki;
let app: INestApplication;
let db: DataSource;
let company: TestCompany;
const servers: SapODataServer[] = [];

async function sap(options: Partial<SapServerOptions> = {}): Promise<SapODataServer> {
  const server = new SapODataServer({ pki, version: 'v2', auth: 'oauth', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, username: TECH_USER, password: TECH_PASSWORD, ...options });
  server.partners = [sapPartner('17100001')];
  server.items = [sapItem(1)];
  servers.push(await server.start());
  return server;
}

beforeAll(async () => {
  pki = makeErpPki();
  app = await startTestApp(erpTestConfig());
  db = dataSource(app);
});
beforeEach(async () => {
  await resetDatabase(app);
  company = await registerCompany(app);
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});
afterAll(async () => {
  await app.close();
  pki.remove();
});

describe('ERP connections', () => {
  it('stores secrets sealed and answers only which are set; PATCH replaces, clears and switches methods', async () => {
    const server = await sap();
    const api = erpApi(app, company);
    const created = await api.create(connectionBody(server, pki, { schedule: '0 6 * * 1-5', sap_client: '100' })).expect(201);
    const connection = created.body.erp_connection;
    expect(connection).toMatchObject({
      id: expect.stringMatching(/^erp-[0-9a-f-]{36}$/),
      base_url: server.origin,
      odata_version: 'v2',
      auth_method: 'oauth_client_credentials',
      token_url: `${server.origin}/oauth/token`,
      client_id: CLIENT_ID,
      secrets: { client_secret: true, password: false, private_key: false, private_key_passphrase: false },
      sap_client: '100',
      schedule: '0 6 * * 1-5',
      enabled: true,
      entities: ['customers', 'receivables'],
      service_paths: { customers: '/sap/opu/odata/sap/API_BUSINESS_PARTNER/', receivables: '/sap/opu/odata/sap/API_OPLACCTGDOCITEMCUBE_SRV/' },
      currency: 'EUR',
      page_size: 5000,
      watermarks: {},
      next_pull_at: expect.stringMatching(/T06:00:00\+0[12]:00$/),
      ca_certificates: [expect.objectContaining({ subject: 'CN=ERP Test CA', fingerprint_sha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/) })],
      client_certificate: null,
    });
    expect(connection.mapping.receivables.fields.amount).toBe('AmountInTransactionCurrency');
    expect(JSON.stringify(created.body)).not.toContain(CLIENT_SECRET);
    const [row] = await db.query(`SELECT secrets, secret_names FROM erp_connections`);
    expect(row.secret_names).toEqual(['client_secret']);
    expect(Buffer.from(row.secrets).includes(Buffer.from(CLIENT_SECRET))).toBe(false);
    expect(Buffer.from(row.secrets)[0]).toBe(1);

    const path = `/api/v1/erp_connections/${connection.id}`;
    const listed = (await api.get('/api/v1/erp_connections').expect(200)).body;
    expect(listed).toMatchObject({ erp_connections: [expect.objectContaining({ id: connection.id })], meta: { total_count: 1 } });
    expect(JSON.stringify(listed)).not.toContain(CLIENT_SECRET);

    const basic = await api.patch(path, { auth_method: 'basic', username: TECH_USER, password: TECH_PASSWORD, schedule: null, mapping: { customers: { entity_set: 'ZCUSTOMER', fields: { name: ['Name1'] } } } }).expect(200);
    expect(basic.body.erp_connection).toMatchObject({
      auth_method: 'basic',
      username: TECH_USER,
      secrets: { client_secret: false, password: true },
      schedule: null,
      next_pull_at: null,
      mapping: { customers: { entity_set: 'ZCUSTOMER', key: ['BusinessPartner'], fields: { name: ['Name1'], external_id: 'Customer' } } },
    });
    expect(JSON.stringify(basic.body)).not.toContain(TECH_PASSWORD);
    const cleared = await api.patch(path, { password: null }).expect(422);
    expect(cleared.body.errors).toEqual([{ field: 'password', message: 'password is required for auth_method basic' }]);

    await api.delete(path).expect(204);
    await api.get(path).expect(404);
  });

  it('checks the settings as a whole and names every offending field', async () => {
    const server = await sap();
    const api = erpApi(app, company);
    const res = await api
      .create({ name: 'x', base_url: 'http://erp.example.com', auth_method: 'oauth_client_credentials', client_id: 'c', schedule: 'every hour', sap_client: '1', entities: ['orders'] })
      .expect(422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'sap_client', message: 'sap_client must be three digits' },
        { field: 'entities', message: 'entities must be a list of customers, receivables' },
      ]),
    );
    const semantic = await api.create({ name: 'x', base_url: 'http://erp.example.com', auth_method: 'oauth_client_credentials', client_id: 'c', schedule: 'every hour' }).expect(422);
    expect(semantic.body.errors).toEqual([
      { field: 'base_url', message: 'base_url must use https:// (credentials never travel unencrypted)' },
      { field: 'token_url', message: 'token_url is required for auth_method oauth_client_credentials' },
      { field: 'client_secret', message: 'client_secret is required for auth_method oauth_client_credentials' },
      { field: 'schedule', message: 'schedule must be a cron expression of five fields (minute hour day month weekday), e.g. "0 */2 * * *"' },
    ]);
    const mismatch = await api.create(connectionBody(server, pki, { auth_method: 'x509', client_certificate: pki.clientCert, private_key: pki.rogueClientKey })).expect(422);
    expect(mismatch.body.errors).toEqual([{ field: 'private_key', message: 'private_key does not belong to client_certificate' }]);
    const locked = await api.create(connectionBody(server, pki, { auth_method: 'x509', client_certificate: pki.clientCert, private_key: pki.clientKeyEncrypted })).expect(422);
    expect(locked.body.errors).toEqual([{ field: 'private_key_passphrase', message: 'private_key is encrypted: private_key_passphrase is needed' }]);
    const wrong = await api.create(connectionBody(server, pki, { auth_method: 'x509', client_certificate: pki.clientCert, private_key: pki.clientKeyEncrypted, private_key_passphrase: 'nope' })).expect(422);
    expect(wrong.body.errors).toEqual([{ field: 'private_key', message: 'private_key does not open with private_key_passphrase' }]);
    const good = await api.create(connectionBody(server, pki, { auth_method: 'x509', client_certificate: pki.clientCert, private_key: pki.clientKeyEncrypted, private_key_passphrase: CLIENT_KEY_PASSPHRASE })).expect(201);
    expect(good.body.erp_connection).toMatchObject({
      secrets: { private_key: true, private_key_passphrase: true, client_secret: false },
      client_certificate: expect.objectContaining({ subject: 'CN=RECEIVABLES_PULL', issuer: 'CN=ERP Test CA' }),
    });
    const badMapping = await api.create(connectionBody(server, pki, { mapping: { receivables: { fields: { amount: 'Amount; DROP' } } } })).expect(422);
    expect(badMapping.body.errors).toEqual([{ field: 'mapping[receivables][fields][amount]', message: 'mapping[receivables][fields][amount] must name OData properties (Name or Navigation/Name)' }]);
  });

  it('forgets the watermarks when pointed at another system, service or mapping', async () => {
    const server = await sap({ auth: 'basic' });
    const api = erpApi(app, company);
    const id = (await api.create(connectionBody(server, pki)).expect(201)).body.erp_connection.id;
    const path = `/api/v1/erp_connections/${id}`;
    const marks = { customers: '2026-01-10', receivables: '2026-01-16', clearings: '2026-01-16' };
    await db.query(`UPDATE erp_connections SET watermarks = $1`, [JSON.stringify(marks)]);
    expect((await api.patch(path, { name: 'renamed', schedule: '0 * * * *' }).expect(200)).body.erp_connection.watermarks).toEqual(marks);
    const elsewhere = server.origin.replace('127.0.0.1', 'localhost');
    const refused = await api.patch(path, { base_url: elsewhere }).expect(422);
    expect(refused.body.errors).toEqual([{ field: 'password', message: 'password must be given again when base_url points to another host: stored secrets are never sent to a new host' }]);
    expect((await api.get(path).expect(200)).body.erp_connection).toMatchObject({ base_url: server.origin, watermarks: marks });
    expect((await api.patch(path, { base_url: elsewhere, password: TECH_PASSWORD }).expect(200)).body.erp_connection.watermarks).toEqual({});
  });

  it('never sends a stored secret to a new host: moving base_url or token_url needs the secret again', async () => {
    const home = await sap();
    const stranger = await sap();
    const api = erpApi(app, company);
    const id = (await api.create(connectionBody(home, pki)).expect(201)).body.erp_connection.id;
    const path = `/api/v1/erp_connections/${id}`;
    const message = (fields: string) => `client_secret must be given again when ${fields} points to another host: stored secrets are never sent to a new host`;
    const byToken = await api.patch(path, { token_url: `${stranger.origin}/oauth/token` }).expect(422);
    expect(byToken.body.errors).toEqual([{ field: 'client_secret', message: message('token_url') }]);
    const byBase = await api.patch(path, { base_url: stranger.origin }).expect(422);
    expect(byBase.body.errors).toEqual([{ field: 'client_secret', message: message('base_url') }]);
    const both = await api.patch(path, { base_url: stranger.origin, token_url: `${stranger.origin}/oauth/token`, name: 'moved' }).expect(422);
    expect(both.body.errors).toEqual([{ field: 'client_secret', message: message('base_url and token_url') }]);
    // Nothing changed: the test and a pull still talk to the old host only.
    expect((await api.post(`${path}/test`).expect(200)).body.connection_test.ok).toBe(true);
    expect(stranger.requests).toHaveLength(0);
    expect(home.tokenRequests).toHaveLength(1);
    // Same host, another path: the secret stays.
    await api.patch(path, { token_url: `${home.origin}/oauth/token?tenant=1` }).expect(200);
    // Given again, the move is accepted, and only then does the new host see it.
    await api.patch(path, { base_url: stranger.origin, token_url: `${stranger.origin}/oauth/token`, client_secret: CLIENT_SECRET }).expect(200);
    expect((await api.post(`${path}/test`).expect(200)).body.connection_test.ok).toBe(true);
    expect(stranger.tokenRequests).toHaveLength(1);
  });

  it('secrets sealed under another SECRETS_KEY: the test says to enter them again, and a PATCH does', async () => {
    const server = await sap({ auth: 'basic' });
    const api = erpApi(app, company);
    const id = (await api.create(connectionBody(server, pki)).expect(201)).body.erp_connection.id;
    const { seal } = await import('../src/config/secret-box.js');
    const [row] = await db.query(`SELECT company_id, id FROM erp_connections`);
    const foreign = seal((await import('node:crypto')).randomBytes(32), JSON.stringify({ password: TECH_PASSWORD }), `erp_connections/${row.company_id}/${row.id}`);
    await db.query(`UPDATE erp_connections SET secrets = $1`, [foreign]);
    const result = (await api.post(`/api/v1/erp_connections/${id}/test`).expect(200)).body.connection_test;
    expect(result).toMatchObject({ ok: false, failed_check: 'secrets' });
    expect(result.checks[2].detail).toMatch(/^The stored secrets of this connection do not open .*: enter them again with PATCH$/);
    await api.patch(`/api/v1/erp_connections/${id}`, { name: 'no secret given' }).expect(422);
    await api.patch(`/api/v1/erp_connections/${id}`, { password: TECH_PASSWORD }).expect(200);
    expect((await api.post(`/api/v1/erp_connections/${id}/test`).expect(200)).body.connection_test.ok).toBe(true);
  });

  it('belongs to its company: another one gets 404 for the connection and its pulls', async () => {
    const server = await sap();
    const id = (await erpApi(app, company).create(connectionBody(server, pki)).expect(201)).body.erp_connection.id;
    const other = erpApi(app, await registerCompany(app));
    await other.get(`/api/v1/erp_connections/${id}`).expect(404);
    await other.patch(`/api/v1/erp_connections/${id}`, { name: 'mine' }).expect(404);
    await other.post(`/api/v1/erp_connections/${id}/test`).expect(404);
    await other.post(`/api/v1/erp_connections/${id}/pulls`).expect(404);
    await other.get(`/api/v1/erp_connections/${id}/pulls`).expect(404);
    await other.delete(`/api/v1/erp_connections/${id}`).expect(404);
    expect((await other.get('/api/v1/erp_connections').expect(200)).body.meta.total_count).toBe(0);
    await erpApi(app, company).get(`/api/v1/erp_connections/${id}`).expect(200);
  });
});

describe('POST …/test says precisely what failed', () => {
  async function probe(server: SapODataServer, overrides: Record<string, unknown> = {}) {
    const api = erpApi(app, company);
    const id = (await api.create(connectionBody(server, pki, overrides)).expect(201)).body.erp_connection.id;
    return (await api.post(`/api/v1/erp_connections/${id}/test`).expect(200)).body.connection_test;
  }

  it('all well: DNS, address, token, both services', async () => {
    const result = await probe(await sap());
    expect(result).toEqual({
      ok: true,
      failed_check: null,
      checks: [
        { check: 'dns', ok: true, detail: '127.0.0.1 is an IP address' },
        // Allowed by the operator, and said so (never called public).
        { check: 'address', ok: true, detail: '127.0.0.1 is a loopback address: allowed because ERP_ALLOW_PRIVATE_NETWORKS=true' },
        { check: 'token', ok: true, detail: `the token endpoint issued an access token to client ${CLIENT_ID}` },
        { check: 'customers', ok: true, detail: '/sap/opu/odata/sap/API_BUSINESS_PARTNER/A_BusinessPartner answers (1 records)' },
        { check: 'receivables', ok: true, detail: '/sap/opu/odata/sap/API_OPLACCTGDOCITEMCUBE_SRV/A_OperationalAcctgDocItemCube answers (1 records)' },
      ],
    });
  });

  it('a host name: says what it resolves to without naming addresses inside the service’s networks', async () => {
    const server = await sap();
    const result = await probe(server, { base_url: server.origin.replace('127.0.0.1', 'localhost'), token_url: `${server.origin.replace('127.0.0.1', 'localhost')}/oauth/token` });
    expect(result.checks.slice(0, 2)).toEqual([
      { check: 'dns', ok: true, detail: expect.stringMatching(/^localhost resolves to \d non-public address(es)? \(not shown\)$/) },
      { check: 'address', ok: true, detail: 'localhost resolves to a loopback address: allowed because ERP_ALLOW_PRIVATE_NETWORKS=true' },
    ]);
    expect(JSON.stringify(result)).not.toMatch(/127\.0\.0\.1|::1/);
    expect(result.ok).toBe(true);
  });

  it('OAuth with HTTP Basic client authentication, chosen per connection', async () => {
    const server = await sap({ tokenAuth: 'client_secret_basic' });
    const api = erpApi(app, company);
    const wrong = await api.create(connectionBody(server, pki, { token_endpoint_auth_method: 'both' })).expect(422);
    expect(wrong.body.errors).toEqual([{ field: 'token_endpoint_auth_method', message: 'token_endpoint_auth_method must be one of client_secret_post, client_secret_basic' }]);
    const byForm = (await api.create(connectionBody(server, pki)).expect(201)).body.erp_connection;
    expect(byForm.token_endpoint_auth_method).toBe('client_secret_post');
    expect((await api.post(`/api/v1/erp_connections/${byForm.id}/test`).expect(200)).body.connection_test).toMatchObject({ ok: false, failed_check: 'token' });
    const patched = await api.patch(`/api/v1/erp_connections/${byForm.id}`, { token_endpoint_auth_method: 'client_secret_basic' }).expect(200);
    expect(patched.body.erp_connection.token_endpoint_auth_method).toBe('client_secret_basic');
    expect((await api.post(`/api/v1/erp_connections/${byForm.id}/test`).expect(200)).body.connection_test.ok).toBe(true);
    expect(server.tokenRequests.map(({ form, basic, ok }) => ({ form, basic, ok }))).toEqual([
      { form: true, basic: false, ok: false },
      { form: false, basic: true, ok: true },
    ]);
  });

  it('DNS', async () => {
    const result = await probe(await sap({ auth: 'basic' }), { base_url: 'https://erp.does-not-exist.invalid' });
    expect(result).toMatchObject({ ok: false, failed_check: 'dns', checks: [{ check: 'dns', ok: false, error_kind: 'dns', detail: expect.stringMatching(/^DNS: erp\.does-not-exist\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN)\)/) }] });
  });

  it('TLS: the ERP certificate is not trusted', async () => {
    const result = await probe(await sap({ auth: 'basic' }), { ca_certificates: null });
    expect(result.failed_check).toBe('customers');
    expect(result.checks[2]).toMatchObject({ error_kind: 'tls', detail: expect.stringMatching(/^TLS: the ERP's server certificate is not trusted/) });
  });

  it('TLS: the ERP refuses our client certificate', async () => {
    const result = await probe(await sap({ auth: 'x509' }), { private_key: pki.rogueClientKey, client_certificate: pki.rogueClientCert });
    expect(result.checks[2]).toMatchObject({ check: 'customers', ok: false, error_kind: 'tls', detail: expect.stringMatching(/does not accept our client certificate/) });
  });

  it('the token endpoint refuses the client secret', async () => {
    const result = await probe(await sap(), { client_secret: 'wrong-secret' });
    expect(result).toMatchObject({ ok: false, failed_check: 'token' });
    expect(result.checks[2]).toMatchObject({ error_kind: 'token', detail: 'The token endpoint /oauth/token refused the client credentials: 401 (invalid_client: Bad client credentials)' });
    expect(result.checks).toHaveLength(3);
  });

  it('401 for a wrong password', async () => {
    const result = await probe(await sap({ auth: 'basic' }), { password: 'Wrong-Password!1' });
    expect(result.checks[2]).toMatchObject({ check: 'customers', error_kind: 'unauthorized', detail: expect.stringMatching(/^401 Unauthorized for \/sap\/opu\/odata\/sap\/API_BUSINESS_PARTNER\/A_BusinessPartner.*: the ERP refused the user name or password/) });
  });

  it('403 with the authorization the ERP says is missing, and 404 for a wrong service path', async () => {
    const server = await sap({ auth: 'basic' });
    server.faults.push({ kind: 'status', status: 403, match: /A_Operational/, body: JSON.stringify({ error: { code: 'CX_SADL_ENTITY_SRV_AUTH', message: { lang: 'en', value: 'No authorization for company code 1010 (F_BKPF_BUK)' } } }) });
    const result = await probe(server, { service_paths: { customers: '/sap/opu/odata/sap/API_BUSINESS_PARTNER_X/' } });
    expect(result).toMatchObject({ ok: false, failed_check: 'customers' });
    expect(result.checks.slice(2)).toEqual([
      {
        check: 'customers',
        ok: false,
        error_kind: 'not_found',
        detail: expect.stringMatching(/^404 Not Found for \/sap\/opu\/odata\/sap\/API_BUSINESS_PARTNER_X\/A_BusinessPartner.*the service path or entity set does not exist on the ERP.*No service found for namespace '', name 'API_BUSINESS_PARTNER_X'/),
      },
      {
        check: 'receivables',
        ok: false,
        error_kind: 'forbidden',
        detail: expect.stringMatching(/^403 Forbidden for .*the technical user lacks the authorization to read .*A_OperationalAcctgDocItemCube\. The ERP says: CX_SADL_ENTITY_SRV_AUTH: No authorization for company code 1010 \(F_BKPF_BUK\)$/),
      },
    ]);
  });
});

describe('OpenAPI', () => {
  it('the committed schemas list exactly the fields the API answers', async () => {
    const doc = JSON.parse((await import('node:fs')).readFileSync('openapi.json', 'utf8')) as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    const fields = (name: string) => Object.keys(doc.components.schemas[name].properties).sort();
    const server = await sap({ auth: 'basic' });
    const api = erpApi(app, company);
    const connection = (await api.create(connectionBody(server, pki)).expect(201)).body.erp_connection;
    expect(Object.keys(connection).sort()).toEqual(fields('ErpConnection'));
    const test = (await api.post(`/api/v1/erp_connections/${connection.id}/test`).expect(200)).body.connection_test;
    expect(Object.keys(test).sort()).toEqual(fields('ConnectionTest'));
    const run = (await api.post(`/api/v1/erp_connections/${connection.id}/pulls`).expect(202)).body.pull_run;
    expect(Object.keys(run).sort()).toEqual(fields('PullRun'));
  });
});

// Suites with an app of their own come last: passport's strategies are process-wide, so once such an
// app is closed, the shared app's requests would meet a strategy bound to a closed database.
describe('SSRF: base URLs into the service’s own networks', () => {
  let guarded: INestApplication;
  beforeAll(async () => {
    guarded = await startTestApp(erpTestConfig({ ERP_ALLOW_PRIVATE_NETWORKS: 'false' }));
  });
  afterAll(async () => guarded.close());

  it.each([
    ['https://127.0.0.1:8443', /^Refused: 127\.0\.0\.1 is a loopback address\./],
    // A name's refusal never names the internal address it resolved to.
    ['https://localhost', /^Refused: localhost resolves to a loopback address\./],
    ['https://169.254.169.254', /^Refused: 169\.254\.169\.254 is a link-local address \(e\.g\. a cloud metadata service\)\./],
    ['https://10.20.30.40', /^Refused: 10\.20\.30\.40 is a private address\./],
    ['https://192.168.1.10:50001', /^Refused: 192\.168\.1\.10 is a private address\./],
    ['https://[::1]', /^Refused: \[::1\] is a loopback address\./],
    ['https://[fd00::5]', /^Refused: \[fd00::5\] is a private \(unique local\) address\./],
    ['https://[::ffff:127.0.0.1]', /^Refused: \[::ffff:7f00:1\] is a loopback address\./],
  ])('refuses %s and says why', async (baseUrl, message) => {
    const owner = await registerCompany(guarded);
    const res = await erpApi(guarded, owner).create({ name: 'x', base_url: baseUrl, auth_method: 'basic', username: 'u', password: 'p' }).expect(422);
    expect(res.body.errors).toEqual([{ field: 'base_url', message: expect.stringMatching(message) }]);
    expect(res.body.errors[0].message).toMatch(/SSRF protection.*ERP_ALLOW_PRIVATE_NETWORKS=true/);
  });

  it('guards the token URL too, and lets public addresses through', async () => {
    const owner = await registerCompany(guarded);
    const res = await erpApi(guarded, owner)
      .create({ name: 'x', base_url: 'https://93.184.215.14', auth_method: 'oauth_client_credentials', token_url: 'https://127.0.0.1/oauth/token', client_id: 'c', client_secret: 's' })
      .expect(422);
    expect(res.body.errors).toEqual([{ field: 'token_url', message: expect.stringMatching(/^Refused: 127\.0\.0\.1 is a loopback address/) }]);
  });
});

describe('background worker', () => {
  let worker: INestApplication;
  beforeAll(async () => {
    worker = await startTestApp(erpTestConfig({ ERP_PULL_WORKER: 'true' }));
  });
  afterAll(async () => worker.close());

  it('registers the minute tick with the queue and executes requested pulls', async () => {
    const [tick] = await dataSource(worker).query(`SELECT name, cron FROM pgboss.schedule WHERE name = 'erp-pull-tick'`);
    expect(tick).toEqual({ name: 'erp-pull-tick', cron: '* * * * *' });
    const server = await sap({ auth: 'basic' });
    const owner = await registerCompany(worker);
    const api = erpApi(worker, owner);
    const id = (await api.create(connectionBody(server, pki)).expect(201)).body.erp_connection.id;
    const started = (await api.post(`/api/v1/erp_connections/${id}/pulls`).expect(202)).body.pull_run;
    expect(started).toMatchObject({ status: 'queued', trigger: 'manual', started_at: null });
    const deadline = Date.now() + 20_000;
    let run = started;
    while (!['succeeded', 'failed'].includes(run.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      run = (await api.get(`/api/v1/erp_connections/${id}/pulls/${started.id}`).expect(200)).body.pull_run;
    }
    expect(run).toMatchObject({ status: 'succeeded', created: 2, started_at: expect.any(String), finished_at: expect.any(String) });
  }, 30_000);
});
