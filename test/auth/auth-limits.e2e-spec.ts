import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { registerCompany, startTestApp, testConfig } from '../support/test-app.js';

describe('failed authentication limit', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const base = testConfig();
    app = await startTestApp({ rateLimit: { ...base.rateLimit, failedAuthPerMinute: 3 } });
  });
  afterAll(async () => app.close());

  it('answers 429 to an address that keeps guessing tokens, even with a right token then', async () => {
    const company = await registerCompany(app);
    const guess = () => request(app.getHttpServer()).get('/').set('Authorization', 'Token token=guessed');
    for (let i = 0; i < 3; i++) await guess().expect(401);
    const blocked = await guess().expect(429);
    expect(blocked.body.code).toBe('rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await request(app.getHttpServer()).get('/').set('Authorization', company.auth).expect(429);
  });
});
