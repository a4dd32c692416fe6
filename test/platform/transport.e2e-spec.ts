// Transport security: HTTPS served by the service itself (TLS 1.2 minimum, ECDHE + AEAD suites only),
// and production's refusal of credentials over plain HTTP unless a trusted TLS proxy vouches for HTTPS.
import type { INestApplication } from '@nestjs/common';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { type AddressInfo, connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ConnectionOptions, connect, createServer, type Server, type TLSSocket } from 'node:tls';
import request from 'supertest';
import { createApp } from '../../src/app.setup.js';
import { CompaniesService } from '../../src/companies/companies.service.js';
import { type AppConfig, ConfigError, loadConfig } from '../../src/config/app.config.js';
import { runMigrations } from '../../src/database/migrate.js';
import { dataSource, resetDatabase, testConfig, testDatabaseUrl } from '../support/test-app.js';

interface Pki {
  dir: string;
  ca: Buffer;
  certFile: string;
  keyFile: string;
}

/** A throw-away CA and a server certificate for localhost / 127.0.0.1 signed by it. */
function makePki(): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'receivables-tls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  writeFileSync(
    file('server.ext'),
    [
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      'basicConstraints=CA:FALSE',
      'keyUsage=digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      '',
    ].join('\n'),
  );
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-subj',
    '/CN=Receivables Test CA',
    '-days',
    '2',
  );
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
  return { dir, ca: readFileSync(file('ca.crt')), certFile: file('server.crt'), keyFile: file('server.key') };
}

const portOf = (app: INestApplication): number => (app.getHttpServer().address() as AddressInfo).port;

interface HttpsAnswer {
  status: number;
  body: string;
  protocol: string | null;
  cipher: string;
}

/** One HTTPS request with the given client TLS settings (no agent: every request does its own handshake). */
function httpsGet(port: number, path: string, tls: ConnectionOptions, headers: Record<string, string> = {}): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path, method: 'GET', servername: 'localhost', agent: false, headers, ...tls },
      (res) => {
        const socket = res.socket as TLSSocket;
        const protocol = socket.getProtocol();
        const cipher = socket.getCipher().name;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, protocol, cipher }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A bare TLS handshake: resolves with the negotiated protocol, rejects with the handshake error. */
function handshake(port: number, tls: ConnectionOptions): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', ...tls }, () => {
      const protocol = socket.getProtocol();
      socket.destroy();
      resolve(protocol);
    });
    socket.on('error', reject);
  });
}

const TLS11_CLIENT: ConnectionOptions = { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' };
/** TLS 1.2 suites the service must not accept: RSA key exchange, CBC with SHA-1, and ECDHE but CBC/SHA-1. */
const WEAK_TLS12_SUITES = ['AES128-SHA', 'AES256-SHA', 'AES128-GCM-SHA256', 'ECDHE-RSA-AES128-SHA'];

describe('HTTPS served by the service', () => {
  let pki: Pki;
  let app: INestApplication;
  let port: number;

  beforeAll(async () => {
    pki = makePki();
    await runMigrations(testDatabaseUrl());
    app = await createApp(testConfig({ tls: { certFile: pki.certFile, keyFile: pki.keyFile } }), testDatabaseUrl());
    await app.listen(0, '127.0.0.1');
    port = portOf(app);
  });
  afterAll(async () => {
    await app.close();
    rmSync(pki.dir, { recursive: true, force: true });
  });

  it('answers a TLS 1.2 client over an ECDHE AEAD suite', async () => {
    const res = await httpsGet(port, '/health/live', { ca: pki.ca, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
    expect(res.protocol).toBe('TLSv1.2');
    expect(res.cipher).toMatch(/^ECDHE-(RSA|ECDSA)-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)$/);
  });

  it('answers a TLS 1.3 client, and prefers TLS 1.3 when the client offers both', async () => {
    const only13 = await httpsGet(port, '/health/live', { ca: pki.ca, minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' });
    expect(only13.status).toBe(200);
    expect(only13.protocol).toBe('TLSv1.3');
    const either = await httpsGet(port, '/health/live', { ca: pki.ca, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3' });
    expect(either.status).toBe(200);
    expect(either.protocol).toBe('TLSv1.3');
  });

  it('does not answer plain HTTP on the HTTPS port', async () => {
    await expect(request(`http://127.0.0.1:${port}`).get('/health/live').timeout(5000)).rejects.toThrow();
  });

  describe('refused at the handshake', () => {
    // A permissive server with the same certificate proves the clients below can complete a handshake at
    // all, so their refusal by the service comes from its TLS settings, not from this Node/OpenSSL build.
    let permissive: Server;
    let permissivePort: number;

    beforeAll(async () => {
      permissive = createServer(
        { cert: readFileSync(pki.certFile), key: readFileSync(pki.keyFile), minVersion: 'TLSv1', ciphers: 'ALL@SECLEVEL=0' },
        (socket) => socket.end(),
      );
      await new Promise<void>((resolve) => permissive.listen(0, '127.0.0.1', resolve));
      permissivePort = (permissive.address() as AddressInfo).port;
    });
    afterAll(async () => new Promise<void>((resolve) => permissive.close(() => resolve())));

    it('refuses a client limited to TLS 1.1', async () => {
      await expect(handshake(permissivePort, { ca: pki.ca, ...TLS11_CLIENT })).resolves.toBe('TLSv1.1');
      const refused = handshake(port, { ca: pki.ca, ...TLS11_CLIENT });
      await expect(refused).rejects.toMatchObject({ code: expect.stringMatching(/^ERR_SSL_/) });
      await expect(httpsGet(port, '/health/live', { ca: pki.ca, ...TLS11_CLIENT })).rejects.toThrow();
    });

    it.each(WEAK_TLS12_SUITES)('refuses a TLS 1.2 client that offers only %s', async (suite) => {
      const client: ConnectionOptions = { ca: pki.ca, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2', ciphers: `${suite}@SECLEVEL=0` };
      await expect(handshake(permissivePort, client)).resolves.toBe('TLSv1.2');
      await expect(handshake(port, client)).rejects.toMatchObject({ code: expect.stringMatching(/^ERR_SSL_/) });
    });
  });
});

describe('credentials in production', () => {
  const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
  let pki: Pki;
  let token: string;
  const apps: INestApplication[] = [];

  /** A real production configuration (loadConfig with APP_ENV=production), on the test database. */
  const productionConfig = (env: Record<string, string> = {}): AppConfig =>
    loadConfig({
      APP_ENV: 'production',
      DATABASE_URL: testDatabaseUrl(),
      SECRETS_KEY,
      PUBLIC_URL: 'https://receivables.test',
      LOG_LEVEL: 'silent',
      ...env,
    });

  async function startProduction(env: Record<string, string> = {}): Promise<{ app: INestApplication; url: string }> {
    const config = productionConfig(env);
    expect(config.env).toBe('production');
    const app = await createApp(config, testDatabaseUrl());
    apps.push(app);
    await app.listen(0, '127.0.0.1');
    return { app, url: `${config.tls ? 'https' : 'http'}://127.0.0.1:${portOf(app)}` };
  }

  beforeAll(async () => {
    pki = makePki();
    await runMigrations(testDatabaseUrl());
    // Production has no self-registration: the company comes from the same service the operator CLI uses.
    const { app } = await startProduction();
    await resetDatabase(app);
    const created = await app.get(CompaniesService).createCompany('Produktiv GmbH', 'ops@example.com', 'Sicher!Passwort1');
    token = created.apiToken;
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    rmSync(pki.dir, { recursive: true, force: true });
  });

  const auth = () => `Token token=${token}`;

  function expectInsecureTransport(res: request.Response): void {
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      status: 403,
      code: 'auth.insecure_transport',
      type: 'urn:receivables:problem:auth.insecure_transport',
    });
  }

  it('refuses a valid credential sent over plain HTTP with a 403 problem document', async () => {
    const { url } = await startProduction();
    expectInsecureTransport(await request(url).get('/').set('Authorization', auth()));
    expectInsecureTransport(await request(url).get('/api/v1/customers').set('Authorization', auth()));
    // The refusal is about the transport only: public routes keep working over plain HTTP.
    await request(url).get('/health/live').expect(200);
  });

  it('accepts the credential over HTTPS served by the service itself', async () => {
    const { url } = await startProduction({ TLS_CERT_FILE: pki.certFile, TLS_KEY_FILE: pki.keyFile });
    const res = await httpsGet(Number(new URL(url).port), '/', { ca: pki.ca }, { Authorization: auth() });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ company: { name: 'Produktiv GmbH' } });
  });

  it.each(['127.0.0.1', 'loopback'])('trusts X-Forwarded-Proto: https from a trusted proxy (TRUSTED_PROXIES=%s)', async (proxies) => {
    const { url } = await startProduction({ TRUSTED_PROXIES: proxies });
    const res = await request(url).get('/').set('Authorization', auth()).set('X-Forwarded-Proto', 'https').expect(200);
    expect(res.body).toMatchObject({ company: { name: 'Produktiv GmbH' } });
    // The trusted proxy saying the client came over plain HTTP, or saying nothing, is still a refusal.
    expectInsecureTransport(await request(url).get('/').set('Authorization', auth()).set('X-Forwarded-Proto', 'http'));
    expectInsecureTransport(await request(url).get('/').set('Authorization', auth()));
  });

  it('accepts every notation of TRUSTED_PROXIES that Express understands', async () => {
    const proxies = '127.0.0.1, ::1, 10.0.0.0/8, 192.168.0.0/255.255.0.0, fd00::/8, ::ffff:10.1.2.3, loopback, linklocal, uniquelocal';
    expect(productionConfig({ TRUSTED_PROXIES: proxies }).trustedProxies).toHaveLength(9);
    const { url } = await startProduction({ TRUSTED_PROXIES: proxies });
    await request(url).get('/').set('Authorization', auth()).set('X-Forwarded-Proto', 'https').expect(200);
  });

  it.each([
    ['a host name', 'proxy.internal'],
    ['a word', 'localhost'],
    ['a prefix too long', '10.0.0.0/33'],
    ['an IPv6 prefix too long', 'fd00::/129'],
    ['an octet over 255', '300.1.2.3'],
    ['a broken netmask', '10.0.0.0/255.0.255.0'],
    ['two slashes', '10.0.0.0/8/9'],
  ])('refuses TRUSTED_PROXIES with %s at start, naming the variable and the entry', (_what, wrong) => {
    let error: unknown;
    try {
      productionConfig({ TRUSTED_PROXIES: `127.0.0.1, ${wrong}` });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^TRUSTED_PROXIES: /);
    expect((error as Error).message).toContain(`"${wrong}"`);
    expect((error as Error).message).not.toContain('"127.0.0.1"');
  });

  it('ignores X-Forwarded-Proto from an address that is not a trusted proxy', async () => {
    const elsewhere = await startProduction({ TRUSTED_PROXIES: '10.0.0.0/8,192.0.2.7' });
    expectInsecureTransport(await request(elsewhere.url).get('/').set('Authorization', auth()).set('X-Forwarded-Proto', 'https'));
    const none = await startProduction();
    expectInsecureTransport(await request(none.url).get('/').set('Authorization', auth()).set('X-Forwarded-Proto', 'https'));
  });

  it('has no self-registration: 404 problem document and nothing stored', async () => {
    const { app, url } = await startProduction({ TRUSTED_PROXIES: '127.0.0.1' });
    const companies = async () => Number((await dataSource(app).query('SELECT count(*) FROM companies'))[0].count);
    const before = await companies();
    const res = await request(url)
      .post('/api/v1/registrations')
      .set('X-Forwarded-Proto', 'https')
      .type('form')
      .send({ company_name: 'Neu GmbH', email: 'new@example.com', password: 'Sicher!Passwort1' })
      .expect(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 404 });
    expect(res.body).not.toHaveProperty('api_token');
    expect(await companies()).toBe(before);
  });
});

/** A raw keep-alive connection: sends GETs on one socket, and says whether the service has closed it. */
class KeepAliveSocket {
  private readonly socket: Socket;
  private received = '';
  closed = false;

  constructor(port: number) {
    this.socket = netConnect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('close', () => (this.closed = true));
    this.socket.on('error', () => (this.closed = true));
  }

  /** The status line of the answer to one GET on this connection. */
  async get(path: string): Promise<string> {
    this.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
    return this.answer();
  }

  /** Part of a request (the service waits for the rest, the connection busy); clears what was received. */
  write(text: string): void {
    this.received = '';
    this.socket.write(text);
  }

  /** The status line of the answer that arrives next. */
  async answer(): Promise<string> {
    const deadline = Date.now() + 5000;
    while (!/\r\n\r\n/.test(this.received) && !this.closed && Date.now() < deadline) await sleep(20);
    return this.received.split('\r\n')[0];
  }

  destroy(): void {
    this.socket.destroy();
  }
}

describe('idle keep-alive connections (a proxy in front reuses them)', () => {
  const apps: INestApplication[] = [];
  const sockets: KeepAliveSocket[] = [];

  async function listening(overrides: Partial<AppConfig> = {}): Promise<number> {
    const app = await createApp(testConfig(overrides), testDatabaseUrl());
    apps.push(app);
    await app.listen(0, '127.0.0.1');
    return portOf(app);
  }
  const open = (port: number) => {
    const socket = new KeepAliveSocket(port);
    sockets.push(socket);
    return socket;
  };

  beforeAll(() => runMigrations(testDatabaseUrl()));
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    for (const app of apps) await app.close();
  });

  it('keeps an idle connection open beyond Node’s 5 s, so nginx’s request on it is answered, not a 502', async () => {
    const socket = open(await listening());
    expect(await socket.get('/health/live')).toBe('HTTP/1.1 200 OK');
    await sleep(6000);
    expect(socket.closed).toBe(false);
    expect(await socket.get('/health/live')).toBe('HTTP/1.1 200 OK');
  }, 20_000);

  it('closes an idle connection after HTTP_KEEP_ALIVE_SECONDS', async () => {
    const socket = open(await listening({ httpKeepAliveSeconds: 1 }));
    expect(await socket.get('/health/live')).toBe('HTTP/1.1 200 OK');
    // Node closes it within keepAliveTimeout plus its own buffer (1 s on Node 24).
    await sleep(3500);
    expect(socket.closed).toBe(true);
  }, 20_000);

  it('shuts down without waiting for the keep-alive time of a connection that was answering', async () => {
    const app = await createApp(testConfig(), testDatabaseUrl());
    await app.listen(0, '127.0.0.1');
    const socket = open(portOf(app));
    // Half a request: the connection is busy, not idle, when the close begins.
    socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await sleep(100);
    const started = Date.now();
    const closed = app.close();
    socket.write('\r\n');
    expect(await socket.answer()).toBe('HTTP/1.1 200 OK');
    await closed;
    expect(Date.now() - started).toBeLessThan(5000);
    // The client hears of it a moment later.
    for (let i = 0; i < 50 && !socket.closed; i++) await sleep(20);
    expect(socket.closed).toBe(true);
  }, 20_000);

  it('the cluster’s nginx template closes idle connections to a replica before the replica does', () => {
    const template = readFileSync(new URL('../../docs/cluster/nginx.conf', import.meta.url), 'utf8');
    const upstream = /^\s*upstream receivables \{\n([\s\S]*?)\n\s*\}$/m.exec(template)?.[1] ?? '';
    const seconds = Number(/^\s*keepalive_timeout (\d+)s;/m.exec(upstream)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(loadConfig({}).httpKeepAliveSeconds);
  });
});
