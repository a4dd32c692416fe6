// API tokens are looked up once per API_TOKEN_CACHE_SECONDS per process: a token revoked in the
// database (the only way tokens are revoked) is refused within that time; an unknown token is never
// remembered, so every try with it counts as a failed authentication.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { hashSecret } from '../../src/auth/secrets.js';
import { afterCredentialCache, dataSource, registerCompany, resetDatabase, startTestApp } from '../support/test-app.js';

describe('API token lookup cache (API_TOKEN_CACHE_SECONDS)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startTestApp({ tokenCacheSeconds: 1 });
    await resetDatabase(app);
  });
  afterAll(async () => app.close());

  const me = (auth: string) => request(app.getHttpServer()).get('/api/v1/customers').set('Authorization', auth);

  it('refuses a token revoked in the database once the cached lookup is older than the cache time', async () => {
    const company = await registerCompany(app);
    await me(company.auth).expect(200);
    await dataSource(app).query(`UPDATE api_tokens SET revoked_at = now() WHERE company_id = $1`, [company.id.slice(4)]);
    afterCredentialCache(app);
    const refused = await me(company.auth).expect(401);
    expect(refused.body).toMatchObject({ code: 'auth.invalid_credential' });
  });

  it('does not remember an unknown token: once it exists, it is accepted at once', async () => {
    const company = await registerCompany(app);
    const token = 'tok_not_yet_issued_0123456789abcdef';
    await me(`Token token=${token}`).expect(401);
    await dataSource(app).query(`UPDATE api_tokens SET token_hash = $2 WHERE company_id = $1`, [company.id.slice(4), hashSecret(token)]);
    await me(`Token token=${token}`).expect(200);
  });
});
