import { createHash } from 'node:crypto';
import { JobQueue } from '../../src/jobs/job-queue.js';
import { SWEEP_QUEUE } from '../../src/idempotency/idempotency-sweeper.js';
import { registerCompany } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

const customer = {
  name: 'Muster GmbH',
  address_line1: 'Muster GmbH',
  address_line3: 'Weg 1',
  zip: '10115',
  city: 'Berlin',
  country_code: 'DE',
};

describe('Idempotency-Key on POST', () => {
  const t = useTestApp({}, { company: true });

  const post = (key: string, body: object, auth = t.company.auth) =>
    t.http.post('/api/v1/customers').set('Authorization', auth).set('Idempotency-Key', key).type('form').send(body);
  const count = async () => Number((await t.db.query('SELECT count(*) FROM customers'))[0].count);

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
    const other = await registerCompany(t.app);
    await post('fix-and-retry', customer, other.auth).expect(201);
    expect(await count()).toBe(2);
  });

  const keyRow = async (key: string) =>
    (
      await t.db.query('SELECT request_hash, status_code, claim_token FROM idempotency_keys WHERE company_id = $1 AND key = $2', [
        t.company.id.slice(4),
        key,
      ])
    )[0];
  const age = (key: string, column: 'created_at' | 'claimed_at', interval: string) =>
    t.db.query(`UPDATE idempotency_keys SET ${column} = now() - $3::interval WHERE company_id = $1 AND key = $2`, [
      t.company.id.slice(4),
      key,
      interval,
    ]);

  describe('expiry', () => {
    it('forgets a key after 24 hours: the same key is then a new request', async () => {
      const first = await post('daily', customer).expect(201);
      await age('daily', 'created_at', '23 hours 59 minutes');
      expect((await post('daily', customer).expect(201)).body).toEqual(first.body);
      await age('daily', 'created_at', '24 hours 1 minute');
      const later = await post('daily', { ...customer, name: 'Neue GmbH' }).expect(201);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
      expect(later.body.id).not.toBe(first.body.id);
      expect(await count()).toBe(2);
    });

    it('the hourly sweep runs as a scheduled job and deletes expired keys only', async () => {
      await post('old', customer).expect(201);
      await post('young', { ...customer, name: 'Jung GmbH' }).expect(201);
      await age('old', 'created_at', '25 hours');
      const schedules = await t.db.query(`SELECT cron FROM pgboss.schedule WHERE name = $1`, [SWEEP_QUEUE]);
      expect(schedules).toEqual([{ cron: '7 * * * *' }]);
      await t.app.get(JobQueue).send(SWEEP_QUEUE, {});
      const deadline = Date.now() + 20_000;
      while ((await keyRow('old')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await keyRow('old')).toBeUndefined();
      expect(await keyRow('young')).toMatchObject({ status_code: 201 });
    }, 30_000);
  });

  describe('a request that died while holding its key', () => {
    /** The state a crash leaves: the key claimed by a request whose work never committed. */
    async function diedWhileHolding(key: string): Promise<void> {
      const res = await post(key, customer).expect(201);
      await t.db.query(`DELETE FROM customers WHERE id = $1`, [res.body.id.slice(4)]);
      await t.db.query(
        `UPDATE idempotency_keys SET status_code = NULL, response_body = NULL, completed_at = NULL, claim_token = gen_random_uuid(), claimed_at = now()
         WHERE company_id = $1 AND key = $2`,
        [t.company.id.slice(4), key],
      );
    }

    it('blocks retries while its lease runs, then lets the same request take the key over, once', async () => {
      await diedWhileHolding('crashed');
      const early = await post('crashed', customer).expect(409);
      expect(early.body.code).toBe('idempotency.in_progress');
      await age('crashed', 'claimed_at', '3 minutes');
      expectKeyReused(await post('crashed', { ...customer, name: 'Andere GmbH' }));
      const retry = await post('crashed', customer).expect(201);
      expect(await count()).toBe(1);
      const again = await post('crashed', customer).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(retry.body);
      expect(await count()).toBe(1);
    });
  });

  it('stores a keyed HMAC of the request, not a plain SHA-256 of a body that may carry secrets', async () => {
    const body = { ...customer, note: 'password=geheim' };
    await t.http
      .post('/api/v1/customers')
      .set('Authorization', t.company.auth)
      .set('Idempotency-Key', 'hmac')
      .type('json')
      .send(body)
      .expect(201);
    const plain = createHash('sha256')
      .update(JSON.stringify(['POST', '/api/v1/customers', body, {}]))
      .digest();
    const row = await keyRow('hmac');
    expect(row.request_hash).toHaveLength(32);
    expect(Buffer.compare(row.request_hash, plain)).not.toBe(0);
  });
});

function expectKeyReused(res: { status: number; body: { code?: string } }): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'idempotency.key_reused' });
}
