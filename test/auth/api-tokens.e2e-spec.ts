// API tokens are looked up once per API_TOKEN_CACHE_SECONDS per process: a token revoked in the
// database (the only way tokens are revoked) is refused within that time; an unknown token is never
// remembered, so every try with it counts as a failed authentication.
import { hashSecret } from '../../src/auth/secrets.js';
import { afterCredentialCache, registerCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

describe('API token lookup cache (API_TOKEN_CACHE_SECONDS)', () => {
  const t = useTestApp({ tokenCacheSeconds: 1 }, { reset: 'once' });

  const me = (auth: string) => t.http.get('/api/v1/customers').set('Authorization', auth);

  it('refuses a token revoked in the database once the cached lookup is older than the cache time', async () => {
    const company = await registerCompany(t.app);
    await me(company.auth).expect(200);
    await t.db.query(`UPDATE api_tokens SET revoked_at = now() WHERE company_id = $1`, [company.id.slice(4)]);
    afterCredentialCache(t.app);
    const refused = await me(company.auth).expect(401);
    expect(refused.body).toMatchObject({ code: 'auth.invalid_credential' });
  });

  it('does not remember an unknown token: once it exists, it is accepted at once', async () => {
    const company = await registerCompany(t.app);
    const token = 'tok_not_yet_issued_0123456789abcdef';
    await me(`Token token=${token}`).expect(401);
    await t.db.query(`UPDATE api_tokens SET token_hash = $2 WHERE company_id = $1`, [company.id.slice(4), hashSecret(token)]);
    await me(`Token token=${token}`).expect(200);
  });
});
