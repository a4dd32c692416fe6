// The OData client against a local SAP stand-in over real HTTPS: each auth method end to end, V2 and V4
// paging, the retry policy (count and spacing of attempts), and the transport's refusals (TLS, SSRF).
import { ConnectorError } from '../../src/connectors/connector-error.js';
import type { ODataClient, ODataClientOptions } from '../../src/connectors/odata-client.js';
import { type ConnectorCredentials, createODataClient } from '../../src/connectors/odata-client.factory.js';
import type { ODataQuery } from '../../src/connectors/odata-wire.js';
import { CLIENT_KEY_PASSPHRASE, type ErpPki, makeErpPki } from '../support/pki.js';
import { BP_PATH, generateData, ITEMS_PATH, SapODataServer, type SapServerOptions } from '../support/sap-odata-server.js';

const ITEMS = ITEMS_PATH.slice(1);
const PARTNERS = BP_PATH.slice(1);
const KEY = ['CompanyCode', 'FiscalYear', 'AccountingDocument', 'AccountingDocumentItem'];
const ITEM_QUERY: ODataQuery = {
  select: [...KEY, 'AmountInTransactionCurrency', 'DocumentDate', 'PostingDate'],
  orderby: KEY,
  filter: "FinancialAccountType eq 'D'",
};

let pki: ErpPki;
const servers: SapODataServer[] = [];
const clients: ODataClient[] = [];

async function sapServer(options: Partial<SapServerOptions> = {}, items = 0, partners = 0): Promise<SapODataServer> {
  const server = new SapODataServer({ pki, version: 'v2', auth: 'none', ...options });
  const data = generateData(partners, items);
  server.items = data.items;
  server.partners = data.partners;
  servers.push(await server.start());
  return server;
}

function client(
  server: SapODataServer,
  credentials: Partial<ConnectorCredentials> = {},
  options: Partial<ODataClientOptions> = {},
): ODataClient {
  const created = createODataClient(
    {
      baseUrl: server.origin,
      version: server.options.version,
      caCertificates: pki.ca,
      allowPrivateNetworks: true,
      timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000 },
      retry: { retries: 3, baseDelayMs: 200, maxRetryAfterMs: 5000 },
      requestIdPrefix: 'pul-test',
      ...options,
    },
    { method: 'basic', username: 'RECEIVABLES', password: 'Pa55word!Pull', ...credentials },
  );
  clients.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<ConnectorError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConnectorError) return error;
    throw error;
  }
  throw new Error('expected a ConnectorError');
}

async function collect(c: ODataClient, entitySet: string, query: ODataQuery, pageSize: number) {
  const pages = [];
  for await (const page of c.pages(entitySet, query, { pageSize, keyFields: KEY })) pages.push(page);
  return pages;
}

beforeAll(() => {
  pki = makeErpPki();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});
afterAll(() => pki.remove());

describe('OAuth 2.0 client credentials', () => {
  const oauth = (server: SapODataServer, secret = 's3cr3t-Client!'): Partial<ConnectorCredentials> => ({
    method: 'oauth_client_credentials',
    tokenUrl: `${server.origin}/oauth/token`,
    clientId: 'RECEIVABLES_CC',
    clientSecret: secret,
  });

  it('fetches one token for many concurrent requests, the client authenticating with the form fields only (client_secret_post)', async () => {
    const server = await sapServer(
      { auth: 'oauth', clientId: 'RECEIVABLES_CC', clientSecret: 's3cr3t-Client!', tokenAuth: 'client_secret_post' },
      30,
    );
    const c = client(server, oauth(server));
    const pages = await Promise.all(Array.from({ length: 8 }, () => c.getPage(ITEMS, { ...ITEM_QUERY, top: 5 })));
    expect(pages.every((p) => p.records.length === 5)).toBe(true);
    expect(server.tokenRequests).toEqual([expect.objectContaining({ form: true, basic: false, ok: true })]);
    expect(server.odataRequests().every((r) => r.headers.authorization?.startsWith('Bearer '))).toBe(true);
  });

  // RFC 6749 §2.3.1: id and secret are form-urlencoded, then joined by a colon and base64-encoded. The
  // stand-in decodes strictly so ('+' is a space), and refuses a request using two methods at once.
  const AWKWARD_ID = 'RECEIVABLES CC:1';
  const AWKWARD_SECRET = 'p$s=w+o/r&d@%x y~*é';

  it('client_secret_basic: id and secret form-urlencoded before base64, and never in the form as well', async () => {
    const server = await sapServer(
      { auth: 'oauth', clientId: AWKWARD_ID, clientSecret: AWKWARD_SECRET, tokenAuth: 'client_secret_basic' },
      3,
    );
    const c = client(server, { ...oauth(server, AWKWARD_SECRET), clientId: AWKWARD_ID, tokenEndpointAuthMethod: 'client_secret_basic' });
    expect((await c.getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(3);
    expect(server.tokenRequests).toEqual([expect.objectContaining({ form: false, basic: true, ok: true })]);
    const [token] = server.requests.filter((r) => r.url === '/oauth/token');
    const credentials = Buffer.from(String(token.headers.authorization).slice('Basic '.length), 'base64').toString('utf8');
    expect(credentials).toBe('RECEIVABLES+CC%3A1:p%24s%3Dw%2Bo%2Fr%26d%40%25x+y%7E*%C3%A9');
  });

  it('client_secret_post carries the same awkward secret in the form; a strict endpoint for the other method refuses it', async () => {
    const post = await sapServer({ auth: 'oauth', clientId: AWKWARD_ID, clientSecret: AWKWARD_SECRET, tokenAuth: 'client_secret_post' }, 2);
    expect((await client(post, { ...oauth(post, AWKWARD_SECRET), clientId: AWKWARD_ID }).getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(
      2,
    );
    expect(post.tokenRequests).toEqual([expect.objectContaining({ form: true, basic: false, ok: true })]);
    const basicOnly = await sapServer(
      { auth: 'oauth', clientId: AWKWARD_ID, clientSecret: AWKWARD_SECRET, tokenAuth: 'client_secret_basic' },
      2,
    );
    const refused = await failure(
      client(basicOnly, { ...oauth(basicOnly, AWKWARD_SECRET), clientId: AWKWARD_ID }).getPage(ITEMS, ITEM_QUERY),
    );
    expect(refused.message).toMatch(
      /refused the client credentials: 401 \(invalid_client: client authentication must be client_secret_basic\)/,
    );
  });

  it('retries the token endpoint on 5xx and 429 (honouring Retry-After), like any request', async () => {
    const server = await sapServer({ auth: 'oauth', clientId: 'RECEIVABLES_CC', clientSecret: 's3cr3t-Client!' }, 3);
    server.faults.push(
      { kind: 'status', status: 503, match: /oauth/, times: 1 },
      { kind: 'status', status: 429, retryAfter: '1', match: /oauth/, times: 1 },
    );
    expect((await client(server, oauth(server)).getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(3);
    const attempts = server.requests.filter((r) => r.url === '/oauth/token');
    expect(attempts.map((r) => r.status)).toEqual([503, 429, 200]);
    expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(990);
    expect(server.odataRequests().map((r) => r.status)).toEqual([200]);
  });

  it('reports a wrong client secret as the token endpoint refusing the credentials, without retrying', async () => {
    const server = await sapServer({ auth: 'oauth', clientId: 'RECEIVABLES_CC', clientSecret: 's3cr3t-Client!' }, 3);
    const error = await failure(client(server, oauth(server, 'wrong')).getPage(ITEMS, ITEM_QUERY));
    expect(error.kind).toBe('token');
    expect(error.message).toMatch(/refused the client credentials: 401 \(invalid_client: Bad client credentials\)/);
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.odataRequests()).toHaveLength(0);
  });

  it('refreshes an expired token exactly once, then goes on with the new one', async () => {
    const server = await sapServer({ auth: 'oauth', clientId: 'RECEIVABLES_CC', clientSecret: 's3cr3t-Client!' }, 10);
    const c = client(server, oauth(server));
    await c.getPage(ITEMS, { ...ITEM_QUERY, top: 2 });
    server.expireTokens();
    await Promise.all([1, 2, 3].map(() => c.getPage(ITEMS, { ...ITEM_QUERY, top: 2 })));
    expect(server.tokenRequests.map((t) => t.ok)).toEqual([true, true]);
    const statuses = server.odataRequests().map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
  });

  it('gives up after one refresh when the fresh token is refused too', async () => {
    const server = await sapServer({ auth: 'oauth', clientId: 'RECEIVABLES_CC', clientSecret: 's3cr3t-Client!' }, 3);
    const c = client(server, oauth(server));
    server.faults.push({ kind: 'status', status: 401, match: /A_Operational/, times: 2 });
    const error = await failure(c.getPage(ITEMS, ITEM_QUERY));
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toMatch(
      /^401 Unauthorized for \/sap\/opu\/odata\/sap\/API_OPLACCTGDOCITEMCUBE_SRV\/A_OperationalAcctgDocItemCube/,
    );
    expect(server.tokenRequests).toHaveLength(2);
    expect(server.odataRequests()).toHaveLength(2);
  });

  it('renews the token shortly before expires_in, not per request', async () => {
    // Tokens live 2 s and the stand-in refuses them after that. Whatever the machine's load, every
    // request gets an answer, and tokens are fetched no more often than their lifetime allows.
    const server = await sapServer(
      { auth: 'oauth', clientId: 'RECEIVABLES_CC', clientSecret: 's3cr3t-Client!', tokenLifetimeSeconds: 2 },
      3,
    );
    const c = client(server, oauth(server));
    const until = Date.now() + 5000;
    let calls = 0;
    while (Date.now() < until) {
      expect((await c.getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(3);
      calls++;
      await new Promise((r) => setTimeout(r, 50));
    }
    const fetched = server.tokenRequests.map((t) => t.at);
    expect(fetched.length).toBeGreaterThanOrEqual(2);
    expect(fetched.length).toBeLessThan(calls);
    // Renewal is due at 90 % of the lifetime (1.8 s): never earlier.
    fetched.slice(1).forEach((at, i) => expect(at - fetched[i]).toBeGreaterThanOrEqual(1750));
    expect(server.tokenRequests.every((t) => t.ok)).toBe(true);
  }, 20_000);
});

describe('Basic authentication', () => {
  it('sends the technical user, X-Request-ID, Accept and sap-client on every request', async () => {
    const server = await sapServer({ auth: 'basic', username: 'RECEIVABLES', password: 'Pa55word!Pull', sapClient: '100' }, 5);
    const page = await client(server, {}, { sapClient: '100' }).getPage(ITEMS, ITEM_QUERY);
    expect(page.records).toHaveLength(5);
    const [sent] = server.odataRequests();
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('RECEIVABLES:Pa55word!Pull').toString('base64')}`);
    expect(sent.headers.accept).toBe('application/json');
    expect(sent.headers['sap-client']).toBe('100');
    expect(sent.url).toMatch(/[?&]sap-client=100(&|$)/);
    expect(sent.headers['x-request-id']).toBe('pul-test-000001');
  });

  it('without the sap-client the default client refuses the user: a 401 saying the credentials were refused', async () => {
    const server = await sapServer({ auth: 'basic', username: 'RECEIVABLES', password: 'Pa55word!Pull', sapClient: '100' }, 5);
    const error = await failure(client(server).getPage(ITEMS, ITEM_QUERY));
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toMatch(/refused the user name or password.*The ERP says: \/IWFND\/CM_CONSUMER\/001: Logon failed/);
  });

  it('reports a wrong password as 401 after one request (4xx is never retried)', async () => {
    const server = await sapServer({ auth: 'basic', username: 'RECEIVABLES', password: 'Pa55word!Pull' }, 5);
    const error = await failure(client(server, { password: 'wrong' }).getPage(ITEMS, ITEM_QUERY));
    expect(error.kind).toBe('unauthorized');
    expect(server.odataRequests()).toHaveLength(1);
  });
});

describe('X.509 client certificate', () => {
  it('presents certificate and key (also a passphrase-protected key) in the handshake', async () => {
    const server = await sapServer({ auth: 'x509' }, 4);
    const plain = client(server, { method: 'x509', clientCertificate: pki.clientCert, privateKey: pki.clientKey });
    expect((await plain.getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(4);
    const encrypted = client(server, {
      method: 'x509',
      clientCertificate: pki.clientCert,
      privateKey: pki.clientKeyEncrypted,
      privateKeyPassphrase: CLIENT_KEY_PASSPHRASE,
    });
    expect((await encrypted.getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(4);
    expect(server.odataRequests().map((r) => [r.clientCertCn, r.headers.authorization])).toEqual([
      ['RECEIVABLES_PULL', undefined],
      ['RECEIVABLES_PULL', undefined],
    ]);
  });

  it('a certificate the ERP does not trust ends in a clear TLS error', async () => {
    const server = await sapServer({ auth: 'x509' }, 4);
    const c = client(
      server,
      { method: 'x509', clientCertificate: pki.rogueClientCert, privateKey: pki.rogueClientKey },
      { retry: { retries: 0, baseDelayMs: 1, maxRetryAfterMs: 0 } },
    );
    const error = await failure(c.getPage(ITEMS, ITEM_QUERY));
    expect(error.kind).toBe('tls');
    // Node's TLS server closes without an alert (SAP's sends "unknown ca", which reads the same way).
    expect(error.message).toMatch(
      /^TLS: 127\.0\.0\.1:\d+ (closed the connection right after the handshake without answering|broke off the handshake): it most likely does not accept our client certificate/,
    );
  });
});

describe('TLS and SSRF', () => {
  it('verifies the server certificate: without the ERP CA the handshake is refused, and not retried', async () => {
    const server = await sapServer({}, 1);
    const error = await failure(client(server, {}, { caCertificates: null }).getPage(ITEMS, ITEM_QUERY));
    expect(error.kind).toBe('tls');
    expect(error.message).toMatch(
      /^TLS: the ERP's server certificate is not trusted \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('refuses an ERP that offers nothing newer than TLS 1.1', async () => {
    const server = await sapServer({ tlsMaxVersion: 'TLSv1.1' }, 1);
    const error = await failure(client(server).getPage(ITEMS, ITEM_QUERY));
    expect(error.kind).toBe('tls');
    expect(error.message).toMatch(/^TLS: .*TLS 1\.2 or newer/);
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses loopback and private addresses unless allowed, before any byte is sent', async () => {
    const server = await sapServer({}, 1);
    const byIp = await failure(client(server, {}, { allowPrivateNetworks: false }).getPage(ITEMS, ITEM_QUERY));
    expect(byIp.kind).toBe('address_refused');
    expect(byIp.message).toMatch(/^Refused: 127\.0\.0\.1 is a loopback address\. .*ERP_ALLOW_PRIVATE_NETWORKS=true/);
    const byName = await failure(
      client(server, {}, { allowPrivateNetworks: false, baseUrl: server.origin.replace('127.0.0.1', 'localhost') }).getPage(
        ITEMS,
        ITEM_QUERY,
      ),
    );
    expect(byName.kind).toBe('address_refused');
    expect(byName.message).toMatch(/^Refused: localhost resolves to a loopback address\. /);
    expect(byName.message).not.toMatch(/127\.0\.0\.1|::1/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('paging', () => {
  it('V2: follows __next inside $top windows, on the configured host even when the links name an internal one', async () => {
    const server = await sapServer({ serverPageSize: 40, nextLinkOrigin: 'https://internal-erp.corp:44300' }, 250);
    const pages = await collect(client(server), ITEMS, ITEM_QUERY, 100);
    const records = pages.flatMap((p) => p.records);
    expect(records).toHaveLength(250);
    expect(new Set(records.map((r) => r.AccountingDocument)).size).toBe(250);
    expect(pages[0].count).toBe(250);
    // 3 windows of $top=100 ($skip 0, 100, 200), each in pages of 40.
    expect(pages.map((p) => p.records.length)).toEqual([40, 40, 20, 40, 40, 20, 40, 10]);
    expect(server.requests.every((r) => r.status === 200)).toBe(true);
    expect(server.requests.filter((r) => r.url.includes('$inlinecount=allpages'))).toHaveLength(1);
    expect(records[0]).toMatchObject({
      AccountingDocument: '1800000000',
      AmountInTransactionCurrency: '100.000',
      DocumentDate: '2026-01-01T00:00:00.000Z',
      PostingDate: '2026-01-01T00:00:00.000Z',
    });
    expect(records[0]).not.toHaveProperty('__metadata');
  });

  it('V4: follows relative @odata.nextLink, asks for IEEE754 decimals as strings and checks @odata.count', async () => {
    const server = await sapServer({ version: 'v4', serverPageSize: 30 }, 75);
    const pages = await collect(client(server), ITEMS, ITEM_QUERY, 5000);
    const records = pages.flatMap((p) => p.records);
    expect(records).toHaveLength(75);
    expect(pages.map((p) => p.records.length)).toEqual([30, 30, 15]);
    expect(records[1]).toMatchObject({
      AccountingDocument: '1800000001',
      AmountInTransactionCurrency: '101.010',
      DocumentDate: '2026-01-02',
    });
    expect(server.requests[0].headers.accept).toBe('application/json;IEEE754Compatible=true');
    expect(server.requests[0].url).toContain('$count=true');
  });

  it('pages by $top/$skip when the server does not page, and copes with one that ignores $top', async () => {
    const plain = await sapServer({}, 23);
    expect((await collect(client(plain), ITEMS, ITEM_QUERY, 10)).map((p) => p.records.length)).toEqual([10, 10, 3]);
    expect(plain.requests.map((r) => new URL(r.url, plain.origin).searchParams.get('$skip'))).toEqual([null, '10', '20']);
    const everything = await sapServer({ ignoreTop: true }, 23);
    expect((await collect(client(everything), ITEMS, ITEM_QUERY, 10)).map((p) => p.records.length)).toEqual([23]);
  });

  it('V4 expands navigation properties with nested $select', async () => {
    const server = await sapServer({ version: 'v4' }, 0, 2);
    const page = await client(server).getPage(PARTNERS, {
      select: ['Customer', 'to_BusinessPartnerAddress/CityName', 'to_BusinessPartnerAddress/to_EmailAddress/EmailAddress'],
      top: 2,
    });
    expect(new URL(server.requests[0].url, server.origin).searchParams.get('$expand')).toBe(
      'to_BusinessPartnerAddress($select=CityName;$expand=to_EmailAddress($select=EmailAddress))',
    );
    expect(page.records[0]).toMatchObject({
      Customer: '1000000',
      to_BusinessPartnerAddress: [{ CityName: 'Berlin', to_EmailAddress: [{ EmailAddress: 'ap0@kunde.example' }] }],
    });
  });

  it('notices a server that ignores $skip, or sends the same next link twice, instead of reading forever', async () => {
    const noSkip = await sapServer({ ignoreSkip: true }, 25);
    const ignored = await failure(collect(client(noSkip), ITEMS, ITEM_QUERY, 10));
    expect(ignored).toMatchObject({
      kind: 'protocol',
      message: expect.stringMatching(/answers every \$skip with the same records: the server ignores \$skip$/),
    });
    expect(noSkip.requests).toHaveLength(2);
    const looping = await sapServer({ serverPageSize: 5, repeatNextLink: true }, 25);
    const repeated = await failure(collect(client(looping), ITEMS, ITEM_QUERY, 100));
    expect(repeated).toMatchObject({ kind: 'protocol', message: expect.stringMatching(/sent the same next link twice/) });
    expect(looping.requests).toHaveLength(2);
  });

  it('refuses an answer larger than maxResponseBytes rather than holding it, without retrying', async () => {
    const server = await sapServer({}, 200);
    const error = await failure(client(server, {}, { maxResponseBytes: 10_000 }).getPage(ITEMS, ITEM_QUERY));
    expect(error).toMatchObject({ kind: 'protocol', message: expect.stringMatching(/is larger than 10000 bytes; lower the page size$/) });
    expect(server.requests).toHaveLength(1);
  });

  it('ends with an incomplete error when fewer records arrive than announced', async () => {
    const server = await sapServer({ serverPageSize: 10 }, 30);
    const c = client(server);
    const pages = c.pages(ITEMS, ITEM_QUERY, { pageSize: 100, keyFields: KEY });
    const first = await pages.next();
    expect(first.value?.records).toHaveLength(10);
    server.items.splice(0, 5);
    server.touch();
    const error = await failure(
      (async () => {
        for await (const _ of pages);
      })(),
    );
    expect(error.kind).toBe('incomplete');
    expect(error.message).toMatch(/announced 30 records but sent 25/);
  });
});

describe('retries', () => {
  it('retries 503 three times with exponential backoff and jitter, then gives up', async () => {
    const server = await sapServer({}, 3);
    server.faults.push({ kind: 'status', status: 503, times: 10 });
    const error = await failure(client(server).getPage(ITEMS, ITEM_QUERY));
    expect(error.kind).toBe('server');
    expect(error.message).toMatch(/^503 from .* \(gave up after 4 attempts\)$/);
    const at = server.requests.map((r) => r.at);
    expect(at).toHaveLength(4);
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    // base 200 ms: retry n waits between 100·2^(n−1) and 200·2^(n−1) ms.
    [
      [100, 200],
      [200, 400],
      [400, 800],
    ].forEach(([min, max], i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(min - 5);
      expect(gaps[i]).toBeLessThan(max + 100);
    });
  });

  it('honours Retry-After on 429 and succeeds on the next attempt', async () => {
    const server = await sapServer({}, 3);
    server.faults.push({ kind: 'status', status: 429, retryAfter: '1', times: 1 });
    const page = await client(server).getPage(ITEMS, ITEM_QUERY);
    expect(page.records).toHaveLength(3);
    const [first, second] = server.requests;
    expect(first.status).toBe(429);
    expect(second.at - first.at).toBeGreaterThanOrEqual(995);
    expect(second.headers['x-request-id']).toBe('pul-test-000002');
  });

  it('honours Retry-After on 503 too', async () => {
    const server = await sapServer({}, 3);
    server.faults.push({ kind: 'status', status: 503, retryAfter: '1', times: 1 });
    expect((await client(server).getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(3);
    const [first, second] = server.requests;
    expect([first.status, second.status]).toEqual([503, 200]);
    // Without Retry-After the first retry would wait at most 200 ms.
    expect(second.at - first.at).toBeGreaterThanOrEqual(995);
  });

  it('gives up at once when Retry-After asks for longer than allowed', async () => {
    const server = await sapServer({}, 3);
    server.faults.push({ kind: 'status', status: 429, retryAfter: '3600', times: 1 });
    const error = await failure(client(server).getPage(ITEMS, ITEM_QUERY));
    expect(error.kind).toBe('throttled');
    expect(error.message).toMatch(/asks to wait 3600 s/);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a reset connection, and never a 403 or 404', async () => {
    const server = await sapServer({}, 3);
    server.faults.push({ kind: 'reset', times: 2 });
    expect((await client(server).getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(3);
    expect(server.requests.map((r) => r.status)).toEqual([-1, -1, 200]);

    server.faults.push({
      kind: 'status',
      status: 403,
      times: 1,
      body: JSON.stringify({ error: { code: 'CX_SADL_ENTITY_SRV_AUTH', message: { value: 'No authorization for F_BKPF_BUK' } } }),
    });
    const forbidden = await failure(client(server).getPage(ITEMS, ITEM_QUERY));
    expect(forbidden.kind).toBe('forbidden');
    expect(forbidden.message).toMatch(
      /lacks the authorization to read .*A_OperationalAcctgDocItemCube\. The ERP says: CX_SADL_ENTITY_SRV_AUTH: No authorization for F_BKPF_BUK/,
    );
    const missing = await failure(client(server).getPage('sap/opu/odata/sap/API_WRONG_SRV/A_Thing', ITEM_QUERY));
    expect(missing.kind).toBe('not_found');
    expect(missing.message).toMatch(/404 Not Found for \/sap\/opu\/odata\/sap\/API_WRONG_SRV\/A_Thing/);
    expect(server.requests.map((r) => r.status).slice(3)).toEqual([403, 404]);
  });

  it('bounds a whole attempt: an answer trickling in slower than the deadline ends, though it never idles long', async () => {
    const server = await sapServer({}, 3);
    server.faults.push({ kind: 'trickle', intervalMs: 100, times: 1 });
    const c = client(server, {}, { timeouts: { connectMs: 1000, headersMs: 1000, bodyMs: 1000, totalMs: 1500 } });
    const started = Date.now();
    expect((await c.getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(3);
    expect(server.requests.map((r) => r.status)).toEqual([-3, 200]);
    expect(server.requests[1].at - started).toBeGreaterThanOrEqual(1400);
    server.faults.push({ kind: 'trickle', intervalMs: 100, times: 1 });
    const once = client(
      server,
      {},
      {
        timeouts: { connectMs: 1000, headersMs: 1000, bodyMs: 1000, totalMs: 800 },
        retry: { retries: 0, baseDelayMs: 1, maxRetryAfterMs: 0 },
      },
    );
    const error = await failure(once.getPage(ITEMS, ITEM_QUERY));
    expect(error).toMatchObject({
      kind: 'timeout',
      retryable: true,
      message: expect.stringMatching(/did not complete its answer within 800 ms \(the deadline of one request\)$/),
    });
  });

  it('times out a stalled answer and retries it', async () => {
    const server = await sapServer({}, 3);
    server.faults.push({ kind: 'stall', times: 1 });
    const c = client(server, {}, { timeouts: { connectMs: 1000, headersMs: 300, bodyMs: 300 } });
    expect((await c.getPage(ITEMS, ITEM_QUERY)).records).toHaveLength(3);
    expect(server.requests.map((r) => r.status)).toEqual([-2, 200]);
  });
});
