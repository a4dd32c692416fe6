// Requests the OpenAPI fuzz suite (openapi-fuzz.e2e-spec.ts) found answered with a 500, each pinned
// down with the seed that found it: now a 4xx problem document, and nothing stored.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { expectProblem, withoutRateLimits } from '../support/factories.js';
import { dataSource, registerCompany, startTestApp, type TestCompany } from '../support/test-app.js';

describe('requests the OpenAPI fuzz suite found answered with a 500', () => {
  let app: INestApplication;
  let company: TestCompany;

  beforeAll(async () => {
    app = await startTestApp(withoutRateLimits());
    company = await registerCompany(app, 'Fund GmbH');
  });
  afterAll(async () => app.close());

  const pushedDocuments = async () => Number((await dataSource(app).query('SELECT count(*) AS n FROM push_documents'))[0].n);

  // FUZZ_SEED=7: {"options":{"autoskip_shipping":"x…","autosend":{"x":{"constructor":"…","constructor":"null"}}},…}
  it('refuses a pushed document with a `constructor` key in a nested object (class-transformer took it for a class)', async () => {
    for (const body of [
      '{"x":{"constructor":"a"}}',
      '{"x":{"constructor":{}}}',
      '{"options":{"autosend":{"constructor":"a"}}}',
      '{"x":[{"constructor":1}]}',
    ]) {
      const res = await request(app.getHttpServer())
        .post('/v2/documents')
        .set('Authorization', `ApiKey ${company.apiKey}`)
        .type('json')
        .send(body);
      expectProblem(res, 422);
    }
    expect(await pushedDocuments()).toBe(0);
  });
});
