// Operating the service: request ids on responses and in every log line, no secrets in logs, rate limits
// per credential, health probes, and the OpenAPI document.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import request from 'supertest';
import { createApp } from '../../src/app.setup.js';
import { runMigrations } from '../../src/database/migrate.js';
import { CustomersService } from '../../src/customers/customers.service.js';
import { createRootLogger } from '../../src/logging/logger.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import {
  dataSource,
  registerCompany,
  resetDatabase,
  startTestApp,
  testConfig,
  testDatabaseUrl,
  type TestCompany,
} from '../support/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const customer = {
  name: 'Muster GmbH',
  address_line1: 'Muster GmbH',
  address_line3: 'Weg 1',
  zip: '10115',
  city: 'Berlin',
  country_code: 'DE',
};

type LogLine = Record<string, unknown> & { msg?: string; level: number; request_id?: string };

/** The service's own logger (createRootLogger), writing into memory instead of stdout. */
function capturingLogger(): { logger: Logger; raw: string[]; lines: () => LogLine[] } {
  const raw: string[] = [];
  const logger = createRootLogger('trace', { write: (line: string) => void raw.push(line) });
  return { logger, raw, lines: () => raw.map((line) => JSON.parse(line) as LogLine) };
}

/** The access log line is written when the response finishes: give it a moment after the client has the answer. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('X-Request-ID and logs', () => {
  let app: INestApplication;
  let capture: ReturnType<typeof capturingLogger>;

  beforeAll(async () => {
    await runMigrations(testDatabaseUrl());
    capture = capturingLogger();
    app = await createApp(testConfig(), testDatabaseUrl(), capture.logger);
    await app.init();
  });
  afterAll(async () => app.close());
  beforeEach(async () => resetDatabase(app));
  afterEach(() => jest.restoreAllMocks());

  /** Runs one request and returns the log lines written while it was handled. */
  async function logged<T>(send: () => Promise<T>): Promise<{ answer: T; lines: LogLine[] }> {
    await settle();
    const from = capture.raw.length;
    const answer = await send();
    await settle();
    return { answer, lines: capture.lines().slice(from) };
  }

  it('echoes a sane X-Request-ID the client sent, also in problem documents', async () => {
    for (const id of ['abc-123', 'trace:7f3a.b/9@edge_1', 'a'.repeat(200)]) {
      const res = await request(app.getHttpServer()).get('/health/live').set('X-Request-ID', id).expect(200);
      expect(res.headers['x-request-id']).toBe(id);
    }
    const failed = await request(app.getHttpServer()).get('/').set('X-Request-ID', 'client-chosen-1').expect(401);
    expect(failed.headers['x-request-id']).toBe('client-chosen-1');
    expect(failed.body.request_id).toBe('client-chosen-1');
  });

  it('generates a fresh uuid when the client sent none', async () => {
    const first = await request(app.getHttpServer()).get('/health/live').expect(200);
    const second = await request(app.getHttpServer()).get('/').expect(401);
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(second.body.request_id).toBe(second.headers['x-request-id']);
  });

  it.each([
    ['500 characters', 'x'.repeat(500)],
    ['201 characters', 'y'.repeat(201)],
    ['spaces', 'my request id'],
    ['a tab', 'id\twith-tab'],
    ['JSON and quotes', '"},{"level":60,"msg":"forged'],
    ['angle brackets', '<script>alert(1)</script>'],
  ])('replaces an insane X-Request-ID (%s) with a generated uuid, in the response and the logs', async (_what, sent) => {
    const { answer: res, lines } = await logged(() =>
      request(app.getHttpServer()).get('/health/live').set('X-Request-ID', sent).expect(200),
    );
    const id = res.headers['x-request-id'];
    expect(id).toMatch(UUID);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.request_id).toBe(id);
    expect(capture.raw.slice(-lines.length).join('\n')).not.toContain(sent);
  });

  it('writes a JSON access log line carrying the request id', async () => {
    const company = await registerCompany(app);
    const { lines } = await logged(() =>
      request(app.getHttpServer())
        .get('/api/v1/customers')
        .set('Authorization', company.auth)
        .set('X-Request-ID', 'access-log-1')
        .expect(200),
    );
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.request_id).toBe('access-log-1');
    const access = lines.find((line) => line.res !== undefined);
    expect(access).toMatchObject({
      request_id: 'access-log-1',
      req: { method: 'GET', url: '/api/v1/customers' },
      res: { statusCode: 200 },
    });
  });

  it('writes exactly one access line per request, at warn for a refused one', async () => {
    const { lines } = await logged(() =>
      request(app.getHttpServer()).get('/api/v1/customers').set('X-Request-ID', 'refused-1').expect(401),
    );
    const access = lines.filter((line) => line.res !== undefined);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 40,
      msg: 'request completed',
      request_id: 'refused-1',
      req: { id: 'refused-1', method: 'GET' },
      res: { statusCode: 401 },
    });
    expect(typeof access[0].responseTime).toBe('number');
  });

  it('logs a request whose client left before the answer as aborted, once', async () => {
    const company = await registerCompany(app);
    let release = () => {};
    jest
      .spyOn(app.get(CustomersService), 'list')
      .mockImplementationOnce(() => new Promise((resolve) => (release = () => resolve({ items: [], total: 0 }))));
    const server = app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const from = capture.raw.length;
    const controller = new AbortController();
    const sent = fetch(`http://127.0.0.1:${port}/api/v1/customers`, {
      headers: { authorization: company.auth, 'x-request-id': 'left-1' },
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await expect(sent).rejects.toThrow();
    await settle();
    release();
    await settle();
    const access = capture
      .lines()
      .slice(from)
      .filter((line) => line.res !== undefined);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ msg: 'request aborted', request_id: 'left-1' });
  });

  it('puts the request id on the line of an unhandled error and on its access line', async () => {
    const company = await registerCompany(app);
    jest.spyOn(app.get(CustomersService), 'list').mockRejectedValueOnce(new Error('database went away'));
    const { answer: res, lines } = await logged(() =>
      request(app.getHttpServer()).get('/api/v1/customers').set('Authorization', company.auth).set('X-Request-ID', 'boom-1'),
    );
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 500, code: 'internal', request_id: 'boom-1' });
    expect(JSON.stringify(res.body)).not.toContain('database went away');
    for (const line of lines) expect(line.request_id).toBe('boom-1');
    const error = lines.find((line) => JSON.stringify(line).includes('database went away'));
    expect(error).toMatchObject({ level: 50, request_id: 'boom-1' });
    expect(lines.find((line) => line.res !== undefined)).toMatchObject({ level: 50, request_id: 'boom-1', res: { statusCode: 500 } });
  });

  it('puts the request id on the lines a service writes while handling the request, after database work too', async () => {
    const { answer: res, lines } = await logged(() =>
      request(app.getHttpServer())
        .post('/api/v1/registrations')
        .set('X-Request-ID', 'register-1')
        .type('form')
        .send({ company_name: 'Logzeile GmbH', email: 'log-line@example.com', password: 'Sicher!Passwort1' })
        .expect(201),
    );
    // Written by RegistrationsController through Nest's Logger after the company's rows were inserted.
    const service = lines.find((line) => line.msg === 'company registered');
    expect(service).toMatchObject({
      level: 30,
      context: 'RegistrationsController',
      request_id: 'register-1',
      company: res.body.company.id,
    });
    expect(lines.find((line) => line.res !== undefined)).toMatchObject({ request_id: 'register-1', res: { statusCode: 201 } });
    for (const line of lines) expect(line.request_id).toBe('register-1');
  });

  it('keeps the ids of concurrent requests apart', async () => {
    const company = await registerCompany(app);
    const ids = Array.from({ length: 8 }, (_, i) => `parallel-${i}`);
    const from = capture.raw.length;
    await Promise.all(
      ids.map((id) =>
        request(app.getHttpServer()).get('/api/v1/customers').set('Authorization', company.auth).set('X-Request-ID', id).expect(200),
      ),
    );
    await settle();
    const access = capture
      .lines()
      .slice(from)
      .filter((line) => line.res !== undefined);
    expect(access).toHaveLength(ids.length);
    for (const line of access) expect(line.request_id).toBe((line.req as { id: string }).id);
    expect(new Set(access.map((line) => line.request_id))).toEqual(new Set(ids));
  });

  it('keeps the ids of concurrent requests apart on the lines services write', async () => {
    const server = app.getHttpServer();
    const sent = Array.from({ length: 8 }, (_, i) => ({ id: `concurrent-register-${i}`, email: `concurrent-${i}@example.com` }));
    const from = capture.raw.length;
    const answers = await Promise.all(
      sent.map(({ id, email }) =>
        request(server)
          .post('/api/v1/registrations')
          .set('X-Request-ID', id)
          .type('form')
          .send({ company_name: id, email, password: 'Sicher!Passwort1' })
          .expect(201),
      ),
    );
    await settle();
    const registered = capture
      .lines()
      .slice(from)
      .filter((line) => line.msg === 'company registered');
    expect(registered).toHaveLength(sent.length);
    for (const [i, res] of answers.entries()) {
      expect(registered.find((line) => line.company === res.body.company.id)?.request_id).toBe(sent[i].id);
    }
  });

  it('never writes an API token, API key, password or Authorization header into a log line', async () => {
    const password = 'Geheim!Passwort42';
    const registration = await request(app.getHttpServer())
      .post('/api/v1/registrations')
      .type('form')
      .send({ company_name: 'Geheim GmbH', email: 'secret-owner@example.com', password })
      .expect(201);
    const token: string = registration.body.api_token;
    const apiKey: string = registration.body.api_key;
    const auth = `Token token=${token}`;
    const server = app.getHttpServer();

    const created = await request(server).post('/api/v1/customers').set('Authorization', auth).type('form').send(customer).expect(201);
    await request(server).get(`/api/v1/customers/${created.body.id}`).set('Authorization', auth).expect(200);
    await request(server).patch(`/api/v1/customers/${created.body.id}`).set('Authorization', auth).send({ city: 'Hamburg' }).expect(200);
    await request(server)
      .post('/api/v1/customers')
      .set('Authorization', auth)
      .type('form')
      .send({ ...customer, zip: '' })
      .expect(422);
    await request(server)
      .post('/api/v1/customers')
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send('{"name": ')
      .expect(400);
    await request(server).get('/api/v1/customers/cus-00000000-0000-4000-8000-000000000000').set('Authorization', auth).expect(404);
    jest.spyOn(app.get(CustomersService), 'get').mockRejectedValueOnce(new Error('unexpected failure'));
    await request(server).get(`/api/v1/customers/${created.body.id}`).set('Authorization', auth).expect(500);
    const wrongToken = 'WrongButSecretLookingToken0123456789';
    await request(server).get('/').set('Authorization', `Token token=${wrongToken}`).expect(401);
    await request(server).get('/').set('Authorization', `ApiKey ${apiKey}`).expect(401);
    await request(server).get('/').set('Authorization', `Token token="${token}"`).expect(200);
    await settle();

    const text = capture.raw.join('');
    expect(capture.raw.length).toBeGreaterThan(10);
    expect(text).toContain('unexpected failure'); // the capture does see the failing requests
    for (const secret of [token, apiKey, password, wrongToken, auth]) expect(text).not.toContain(secret);
  });
});

describe('readiness while the database is away', () => {
  let proxy: TcpProxy;
  let app: INestApplication;
  let capture: ReturnType<typeof capturingLogger>;

  // This app reaches the test database through a TCP relay that the test cuts; other apps are unaffected.
  beforeAll(async () => {
    await runMigrations(testDatabaseUrl());
    const target = new URL(testDatabaseUrl());
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(target);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    capture = capturingLogger();
    app = await createApp(testConfig(), viaProxy.toString(), capture.logger);
    await app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    proxy.restore();
    await app.close();
    await proxy.close();
  });

  it('answers 503 with a problem document and logs why under the request id; ready again once the database is back', async () => {
    const server = app.getHttpServer();
    await request(server).get('/health/ready').expect(200);

    proxy.cut();
    const from = capture.raw.length;
    const down = await request(server).get('/health/ready').set('X-Request-ID', 'ready-while-down');
    expect(down.status).toBe(503);
    expect(down.headers['content-type']).toContain('application/problem+json');
    expect(down.body).toMatchObject({ status: 503, code: 'service_unavailable', request_id: 'ready-while-down' });
    await request(server).get('/health/live').expect(200); // the process itself is fine
    await settle();
    const lines = capture
      .lines()
      .slice(from)
      .filter((line) => line.request_id === 'ready-while-down');
    // terminus' own line, written through Nest's Logger, carries the request id like the access line.
    expect(lines.find((line) => String(line.msg).startsWith('Health Check has failed'))).toMatchObject({ level: 50 });
    expect(lines.find((line) => line.res !== undefined)).toMatchObject({ level: 50, res: { statusCode: 503 } });

    proxy.restore();
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await request(server).get('/health/ready')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
  }, 60_000);

  it('the container health probe (dist/src/health/probe.js) exits 0 while ready and 1 while the database is away', async () => {
    const port = String(((app.getHttpServer() as Server).address() as AddressInfo).port);
    expect(await probe(port)).toMatchObject({ code: 0 });
    proxy.cut();
    try {
      expect(await probe(port)).toMatchObject({ code: 1, stderr: expect.stringContaining('not ready: /health/ready answered 503') });
    } finally {
      proxy.restore();
    }
    expect(await probe('1')).toMatchObject({ code: 1, stderr: expect.stringContaining('not ready: connect ECONNREFUSED') });
  }, 120_000);
});

/** Runs the health probe as the container does (TypeScript sources through ts-register.mjs). */
function probe(port: string): Promise<{ code: number; stderr: string }> {
  const entry = fileURLToPath(new URL('../../src/health/probe.ts', import.meta.url));
  const register = fileURLToPath(new URL('../support/ts-register.mjs', import.meta.url));
  const env = { ...process.env, APP_ENV: 'test', PORT: port };
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', register, '--no-warnings', entry], { env, timeout: 60_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

describe('rate limiting', () => {
  const PER_MINUTE = 5;
  let app: INestApplication;
  let a: TestCompany;
  let b: TestCompany;

  beforeEach(async () => {
    app = await startTestApp({ rateLimit: { perMinute: PER_MINUTE, failedAuthPerMinute: 1000 } });
    await resetDatabase(app);
    a = await registerCompany(app);
    b = await registerCompany(app);
  });
  afterEach(async () => app.close());

  it('answers the request over the limit of one credential with 429 and Retry-After; other companies are unaffected', async () => {
    const server = app.getHttpServer();
    for (let i = 0; i < PER_MINUTE; i++) await request(server).get('/').set('Authorization', a.auth).expect(200);
    const limited = await request(server).get('/').set('Authorization', a.auth).expect(429);
    expect(limited.headers['content-type']).toContain('application/problem+json');
    expect(limited.body).toMatchObject({ status: 429, code: 'rate_limited' });
    const retryAfter = limited.headers['retry-after'];
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // The limit is per credential, not per route.
    await request(server).get('/api/v1/customers').set('Authorization', a.auth).expect(429);
    // Another company's credential has its own budget.
    for (let i = 0; i < PER_MINUTE; i++) await request(server).get('/').set('Authorization', b.auth).expect(200);
  });

  it('refuses a limited request before doing its work', async () => {
    const server = app.getHttpServer();
    for (let i = 0; i < PER_MINUTE; i++) await request(server).get('/').set('Authorization', a.auth).expect(200);
    await request(server).post('/api/v1/customers').set('Authorization', a.auth).type('form').send(customer).expect(429);
    const [{ count }] = await dataSource(app).query('SELECT count(*) FROM customers');
    expect(Number(count)).toBe(0);
  });

  it('answers the health probes without a credential and never rate limits them', async () => {
    const server = app.getHttpServer();
    // Exhaust the budget of this client address on a public route (the two registrations counted already).
    let status = 0;
    for (let i = 0; i < PER_MINUTE && status !== 429; i++) {
      status = (await request(server).post('/api/v1/registrations').type('form').send({ company_name: '' })).status;
    }
    expect(status).toBe(429);
    for (let i = 0; i < PER_MINUTE * 3; i++) {
      const live = await request(server).get('/health/live').expect(200);
      expect(live.body).toEqual({ status: 'ok' });
      expect(live.headers['retry-after']).toBeUndefined();
      const ready = await request(server).get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
    }
  });
});

describe('OpenAPI document', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app.close());

  it('serves the JSON document with the customer and contact operations, without a credential', async () => {
    const res = await request(app.getHttpServer()).get('/api/docs-json').expect(200);
    expect(res.headers['content-type']).toContain('application/json');
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    const operations = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
    expect(operations('/')).toEqual(['get']);
    expect(operations('/api/v1/customers')).toEqual(['get', 'post']);
    expect(operations('/api/v1/customers/{id}')).toEqual(['get', 'patch']);
    expect(operations('/api/v1/customers/find/{externalId}')).toEqual(['get']);
    expect(operations('/api/v1/contacts')).toEqual(['post']);
    expect(operations('/api/v1/contacts/{id}')).toEqual(['get', 'patch']);
    expect(operations('/api/v1/contacts/find/{externalId}')).toEqual(['get']);
    expect(operations('/health/live')).toEqual(['get']);
  });

  it('describes the create parameters of the spec, with the required ones marked', async () => {
    const doc = (await request(app.getHttpServer()).get('/api/docs-json').expect(200)).body;
    const create = doc.paths['/api/v1/customers'].post.requestBody.content;
    const ref: string = Object.values(create as Record<string, { schema: { $ref: string } }>)[0].schema.$ref;
    const schema = doc.components.schemas[ref.split('/').pop() as string];
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining([
        'name',
        'address_line1',
        'address_line2',
        'address_line3',
        'zip',
        'city',
        'country_code',
        'external_id',
        'stop_automatic_reminders',
      ]),
    );
    expect([...schema.required].sort()).toEqual(['address_line1', 'address_line3', 'city', 'country_code', 'name', 'zip']);
    expect(doc.paths['/api/v1/customers'].post.security ?? doc.security).toEqual([{ token: [] }]);
  });

  it('serves the interactive documentation as HTML', async () => {
    const res = await request(app.getHttpServer()).get('/api/docs').redirects(1).expect(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toMatch(/swagger-ui/i);
  });
});
