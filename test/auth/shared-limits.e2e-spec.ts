// The failed-authentication limit and the per-credential rate limit hold for all replicas together
// (issue 22: with three replicas the 91st wrong token was the first refused, each replica counting alone).
// Three instances of the application in this process share the test database, as three replicas behind a
// load balancer share theirs; requests go round-robin over them.
import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { RateLimitStore } from '../../src/http/rate-limits/rate-limit.store.js';
import { RATE_LIMIT_SWEEP_QUEUE } from '../../src/http/rate-limits/rate-limit.sweeper.js';
import { dataSource, registerCompany, resetDatabase, startTestApp, testConfig } from '../support/test-app.js';

const REPLICAS = 3;
const FAILED_AUTH_PER_MINUTE = 30;
const REQUESTS_PER_MINUTE = 60;

describe('limits shared by three replicas', () => {
  const base = testConfig();
  let apps: INestApplication[] = [];
  let next = 0;
  /** The next replica in turn, as a round-robin load balancer picks it. */
  const replica = () => request(apps[next++ % REPLICAS].getHttpServer());

  beforeAll(async () => {
    const config = { rateLimit: { ...base.rateLimit, perMinute: REQUESTS_PER_MINUTE, failedAuthPerMinute: FAILED_AUTH_PER_MINUTE } };
    for (let i = 0; i < REPLICAS; i++) apps.push(await startTestApp(config));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    apps = [];
  });
  beforeEach(async () => {
    await resetDatabase(apps[0]);
    next = 0;
  });

  it('refuses the 31st wrong token in a minute, wherever it arrives, and still lets a right token through', async () => {
    const company = await registerCompany(apps[0]);
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE + 3; i++) {
      const guess = `rt_guess${String(i).padStart(4, '0')}${'x'.repeat(30)}`;
      statuses.push((await replica().get('/').set('Authorization', `Token token=${guess}`)).status);
    }
    expect(statuses.slice(0, FAILED_AUTH_PER_MINUTE).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(FAILED_AUTH_PER_MINUTE)).toEqual([429, 429, 429]);
    // Per address, not per credential: the guessing address's valid token passes on every replica.
    for (let i = 0; i < REPLICAS; i++) await replica().get('/').set('Authorization', company.auth).expect(200);
  });

  it('refuses a credential whose identifier was attacked through the other replicas', async () => {
    const company = await registerCompany(apps[0]);
    const token = company.auth.replace(/^Token token=/, '');
    // Same first characters as the real token, wrong rest: every attempt names this credential.
    const attack = () =>
      replica()
        .get('/')
        .set('Authorization', `Token token=${token.slice(0, 12)}${'x'.repeat(31)}`);
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE + REPLICAS; i++) expect([401, 429]).toContain((await attack()).status);
    for (let i = 0; i < REPLICAS; i++) {
      const refused = await replica().get('/').set('Authorization', company.auth).expect(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });

  it('admits no more requests of one credential over all replicas than RATE_LIMIT_PER_MINUTE', async () => {
    const company = await registerCompany(apps[0]);
    const answers = [];
    for (let i = 0; i < REQUESTS_PER_MINUTE * 2; i++) answers.push(await replica().get('/').set('Authorization', company.auth));
    const admitted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(admitted.length + refused.length).toBe(answers.length);
    expect(admitted.length).toBe(REQUESTS_PER_MINUTE);
    expect(Number(refused[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The remaining points count down to 0 over the replicas together.
    expect(Number(admitted[0].headers['ratelimit-remaining'])).toBe(REQUESTS_PER_MINUTE - 1);
    expect(Number(admitted.at(-1)!.headers['ratelimit-remaining'])).toBe(0);
  });

  it('costs a request within its limit no statement: each replica claims a twentieth of the limit at a time', async () => {
    const company = await registerCompany(apps[0]);
    const claims = apps.map((app) => jest.spyOn(app.get(RateLimitStore), 'claim'));
    try {
      for (let i = 0; i < 10 * REPLICAS; i++) await replica().get('/').set('Authorization', company.auth).expect(200);
      // Ten requests per replica, three points per claim: four claims each, not ten.
      expect(claims.map((claim) => claim.mock.calls.length)).toEqual([4, 4, 4]);
    } finally {
      for (const claim of claims) claim.mockRestore();
    }
  });

  it('admits no more than the limit when the replicas are asked at the same moment', async () => {
    const company = await registerCompany(apps[0]);
    const answers = await Promise.all(
      Array.from({ length: REQUESTS_PER_MINUTE * 2 }, () => replica().get('/').set('Authorization', company.auth)),
    );
    const admitted = answers.filter((answer) => answer.status === 200).length;
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 429)).toEqual([]);
    // Points claimed by a replica that the burst no longer reached stay unspent: a little under the limit at most.
    expect(admitted).toBeLessThanOrEqual(REQUESTS_PER_MINUTE);
    expect(admitted).toBeGreaterThanOrEqual(REQUESTS_PER_MINUTE - (REPLICAS - 1) * (REQUESTS_PER_MINUTE / 20));
  });

  it('sweeps the counters of ended windows hourly, and keeps the running ones', async () => {
    const db = dataSource(apps[0]);
    await db.query(`INSERT INTO rate_limit_counters (key, points, granted, window_ends_at)
      VALUES ('failed:address:ended', 5, 1, now() - interval '1 second'), ('failed:address:running', 5, 1, now() + interval '1 minute')`);
    expect(await apps[0].get(RateLimitStore).sweep()).toBe(1);
    expect((await db.query(`SELECT key FROM rate_limit_counters`)).map((row: { key: string }) => row.key)).toEqual([
      'failed:address:running',
    ]);
    expect(await db.query(`SELECT cron FROM pgboss.schedule WHERE name = $1`, [RATE_LIMIT_SWEEP_QUEUE])).toEqual([{ cron: '13 * * * *' }]);
  });
});
