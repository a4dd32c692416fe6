import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { dataSource, registerCompany, resetDatabase, startTestApp, type TestCompany } from './support/test-app.js';

const customer = { name: 'Muster GmbH', address_line1: 'Muster GmbH', address_line3: 'Weg 1', zip: '10115', city: 'Berlin', country_code: 'DE' };

describe('Idempotency-Key on POST', () => {
  let app: INestApplication;
  let company: TestCompany;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app.close());
  beforeEach(async () => {
    await resetDatabase(app);
    company = await registerCompany(app);
  });

  const post = (key: string, body: object, auth = company.auth) =>
    request(app.getHttpServer()).post('/api/v1/customers').set('Authorization', auth).set('Idempotency-Key', key).type('form').send(body);
  const count = async () => Number((await dataSource(app).query('SELECT count(*) FROM customers'))[0].count);

  it('answers a retry with the first response and creates one record', async () => {
    const first = await post('retry-1', customer).expect(201);
    const second = await post('retry-1', customer).expect(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await count()).toBe(1);
  });

  it('refuses the same key with a different body with 422', async () => {
    await post('retry-2', customer).expect(201);
    const res = await post('retry-2', { ...customer, name: 'Other' }).expect(422);
    expect(res.body.code).toBe('idempotency.key_reused');
    expect(await count()).toBe(1);
  });

  it('lets concurrent retries create the record once', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => post('race', customer)));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    expect(await count()).toBe(1);
  });

  it('frees the key when the request failed, and keys are per company', async () => {
    await post('fix-and-retry', { ...customer, zip: '' }).expect(422);
    await post('fix-and-retry', customer).expect(201);
    const other = await registerCompany(app);
    await post('fix-and-retry', customer, other.auth).expect(201);
    expect(await count()).toBe(2);
  });
});
