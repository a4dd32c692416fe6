// Self-registration (development): the exact response of DESIGN.md, what is stored, every way the
// input can be wrong (422 naming the field, 409 for a taken e-mail, never a 5xx, nothing stored), and
// random bodies thrown at it.
import fc from 'fast-check';
import type { Response } from 'supertest';
import { hashSecret, verifyPassword } from '../../src/auth/secrets.js';
import { withoutRateLimits } from '../support/factories.js';
import { useTestApp } from '../support/use-test-app.js';

const PASSWORD = 'Sicher!Passwort1';
const COMPANY_ID = /^cmp-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;
const DAY_MS = 86_400_000;

type Counts = { companies: number; users: number; api_tokens: number; api_keys: number };

describe('POST /api/v1/registrations', () => {
  let seq = 0;
  const register = () => t.http.post('/api/v1/registrations');
  const email = () => `owner-${++seq}-${Date.now()}@example.com`;

  const counts = async (): Promise<Counts> =>
    (
      await t.db.query(
        `SELECT (SELECT count(*) FROM companies)::int AS companies, (SELECT count(*) FROM users)::int AS users,
                (SELECT count(*) FROM api_tokens)::int AS api_tokens, (SELECT count(*) FROM api_keys)::int AS api_keys`,
      )
    )[0];

  function expectProblem(res: Response, status: number, context = ''): void {
    const summary = `${context} → ${res.status} ${res.text.slice(0, 300)}`;
    expect({ summary, status: res.status }).toEqual({ summary, status });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), errors: expect.any(Array) });
  }
  const fieldsOf = (res: Response) => [...new Set(res.body.errors.map((e: { field: string }) => e.field))].sort();

  const t = useTestApp(withoutRateLimits());

  it('answers 201 with exactly the fields of DESIGN.md and credentials that work', async () => {
    const before = Date.now();
    const res = await register()
      .type('form')
      .send({ company_name: '  Muster GmbH ', email: 'Buchhaltung@Muster.de', password: PASSWORD })
      .expect(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['api_key', 'api_key_expires_at', 'api_token', 'company', 'user']);
    expect(res.body).toEqual({
      company: { id: expect.stringMatching(COMPANY_ID), name: 'Muster GmbH' },
      user: { email: 'Buchhaltung@Muster.de' },
      api_token: expect.stringMatching(/^rt_[A-Za-z0-9_-]{43}$/),
      api_key: expect.stringMatching(/^rk_[A-Za-z0-9_-]{43}$/),
      api_key_expires_at: expect.stringMatching(DATETIME),
    });
    // API keys live 90 days (DESIGN.md); the time is given with the company's (Europe/Berlin) offset.
    const expires = Date.parse(res.body.api_key_expires_at);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 90 * DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS);

    const me = await t.http.get('/').set('Authorization', `Token token=${res.body.api_token}`).expect(200);
    expect(me.body).toEqual({ company: res.body.company });
    // Secrets are stored as hashes only.
    const db = t.db;
    expect(await db.query('SELECT 1 FROM api_tokens WHERE token_hash = $1', [hashSecret(res.body.api_token)])).toHaveLength(1);
    expect(await db.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [hashSecret(res.body.api_key)])).toHaveLength(1);
    const [user] = await db.query('SELECT email, password_hash FROM users');
    expect(user.email).toBe('Buchhaltung@Muster.de');
    expect(user.password_hash).toMatch(/^scrypt\$/);
    expect(await verifyPassword(PASSWORD, user.password_hash)).toBe(true);
    const everything = JSON.stringify(await db.query('SELECT * FROM api_tokens, api_keys, users'));
    for (const secret of [res.body.api_token, res.body.api_key, PASSWORD]) expect(everything).not.toContain(secret);
  });

  it('takes JSON as well as a form', async () => {
    const res = await register().send({ company_name: 'Json GmbH', email: email(), password: PASSWORD }).expect(201);
    expect(res.body.company.name).toBe('Json GmbH');
  });

  it('names every missing field, and stores nothing', async () => {
    const res = await register().type('form').send({});
    expectProblem(res, 422);
    expect(res.body.code).toBe('validation.failed');
    expect(fieldsOf(res)).toEqual(['company_name', 'email', 'password']);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'company_name', message: 'company_name is required' },
        { field: 'email', message: 'email is required' },
        { field: 'password', message: 'password is required' },
      ]),
    );
    expect(await counts()).toEqual({ companies: 0, users: 0, api_tokens: 0, api_keys: 0 });
  });

  it.each([
    ['company_name', 'blank', () => ({ company_name: '   ', email: email(), password: PASSWORD })],
    ['company_name', 'a NUL character', () => ({ company_name: 'a\u0000b', email: email(), password: PASSWORD })],
    ['company_name', '256 characters', () => ({ company_name: 'x'.repeat(256), email: email(), password: PASSWORD })],
    ['company_name', 'a list', () => ({ company_name: ['A', 'B'], email: email(), password: PASSWORD })],
    ['email', 'no @', () => ({ company_name: 'A GmbH', email: 'nobody.example.com', password: PASSWORD })],
    ['email', 'a NUL character', () => ({ company_name: 'A GmbH', email: 'a\u0000@example.com', password: PASSWORD })],
    [
      'email',
      '255 characters',
      () => ({
        company_name: 'A GmbH',
        email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.de`,
        password: PASSWORD,
      }),
    ],
    ['password', 'a list', () => ({ company_name: 'A GmbH', email: email(), password: [PASSWORD, PASSWORD] })],
    [
      'password',
      '201 characters',
      () => ({ company_name: 'A GmbH', email: email(), password: `${PASSWORD}${'x'.repeat(201 - PASSWORD.length)}` }),
    ],
  ])('refuses %s with %s: 422 naming it, nothing stored', async (field, _what, body) => {
    const res = await register().type('form').send(body());
    expectProblem(res, 422, `${field}`);
    expect(fieldsOf(res)).toEqual([field]);
    expect(await counts()).toEqual({ companies: 0, users: 0, api_tokens: 0, api_keys: 0 });
  });

  it('accepts the longest allowed values (255-character name, 254-character e-mail)', async () => {
    const longEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.de`;
    expect(longEmail).toHaveLength(254);
    const res = await register()
      .type('form')
      .send({ company_name: 'x'.repeat(255), email: longEmail, password: PASSWORD })
      .expect(201);
    expect(res.body.company.name).toHaveLength(255);
    expect(res.body.user.email).toBe(longEmail);
  });

  it.each([
    ['Short!1a', 'at least 12 characters'],
    ['lowercase!only1', 'an upper-case letter'],
    ['UPPERCASE!ONLY1', 'a lower-case letter'],
    ['NoDigitsHere!!', 'a digit'],
    ['NoSpecials12345', 'a special character'],
  ])('applies the password policy: "%s" lacks %s (422, nothing stored)', async (password, lack) => {
    const res = await register().type('form').send({ company_name: 'A GmbH', email: email(), password });
    expectProblem(res, 422);
    expect(res.body.errors).toEqual([{ field: 'password', message: `password needs ${lack}` }]);
    expect(await counts()).toEqual({ companies: 0, users: 0, api_tokens: 0, api_keys: 0 });
  });

  it('lists every weakness of a password at once', async () => {
    const res = await register().type('form').send({ company_name: 'A GmbH', email: email(), password: 'abc' });
    expectProblem(res, 422);
    expect(res.body.errors).toEqual([
      { field: 'password', message: 'password needs at least 12 characters, an upper-case letter, a digit, a special character' },
    ]);
  });

  it('refuses an e-mail address that is registered already, in any case: 409, nothing stored', async () => {
    await register().type('form').send({ company_name: 'Erste GmbH', email: 'chef@muster.de', password: PASSWORD }).expect(201);
    const before = await counts();
    const res = await register().type('form').send({ company_name: 'Zweite GmbH', email: 'Chef@MUSTER.de', password: PASSWORD });
    expectProblem(res, 409);
    expect(res.body).toMatchObject({
      code: 'registration.email_taken',
      errors: [{ field: 'email', message: 'email is already registered' }],
    });
    expect(await counts()).toEqual(before); // the company row of the refused registration was rolled back
  });

  it('answers a malformed JSON body with 400 and an unsupported body type with 415', async () => {
    expectProblem(await register().set('Content-Type', 'application/json').send('{"company_name": '), 400);
    expectProblem(await register().set('Content-Type', 'text/plain').send('company_name=A'), 415);
    expect(await counts()).toEqual({ companies: 0, users: 0, api_tokens: 0, api_keys: 0 });
  });

  it('answers an e-mail with an unpaired surrogate (which the e-mail check itself cannot read) with 422 naming it', async () => {
    for (const address of ['a\udc00', '\ud83d@example.com']) {
      const res = await register()
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ company_name: 'A GmbH', email: address, password: PASSWORD }));
      expectProblem(res, 422);
      // One message for the field: what is wrong with the text comes before whether it is an address.
      expect(res.body.errors).toEqual([{ field: 'email', message: 'email must not contain NUL characters or unpaired surrogates' }]);
    }
    expect(await counts()).toEqual({ companies: 0, users: 0, api_tokens: 0, api_keys: 0 });
  });

  describe('with random bodies (fast-check)', () => {
    const RUNS = Number(process.env.FUZZ_RUNS) || 150;
    const KEYS = ['company_name', 'email', 'password'];
    const text = fc.oneof(
      { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
      { weight: 1, arbitrary: fc.constant('') },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.integer({ min: 200, max: 3000 }), fc.constantFrom('x', 'ä', '😀', ' ')).map(([n, c]) => c.repeat(n)),
      },
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          '\u0000',
          'a\u0000b',
          'x@example.com\u0000',
          '\ud83d',
          'a\udc00',
          'a@b.de',
          'A@B.DE',
          PASSWORD,
          'null',
          '[]',
          '{}',
          '%',
          '&=[]',
          ' ',
        ),
      },
    );
    const value = fc.oneof(
      { weight: 8, arbitrary: text },
      { weight: 1, arbitrary: fc.array(text, { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), text, { maxKeys: 2 }) },
    );
    const key = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...KEYS) },
      { weight: 1, arbitrary: fc.constantFrom('id', 'company', 'user[email]', '__proto__', 'constructor', '') },
      { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
    );
    const random = fc.dictionary(key, value, { maxKeys: 5 });
    /** A valid registration with one or two random changes, so that 201 answers are checked too and one bad field is found. */
    const valid = () => ({ company_name: 'Fuzz GmbH', email: `fuzz-${++seq}@example.com`, password: PASSWORD });
    const nearlyValid = fc.oneof(
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...KEYS), text).map(([k, v]) => ({ ...valid(), [k]: v })) },
      { weight: 1, arbitrary: fc.dictionary(key, value, { maxKeys: 2 }).map((changes) => ({ ...valid(), ...changes })) },
    );
    const body = fc.oneof({ weight: 1, arbitrary: random }, { weight: 2, arbitrary: nearlyValid });

    async function check(res: Response, before: Counts, context: string): Promise<void> {
      if (res.status === 201) {
        expect({ context, keys: Object.keys(res.body).sort() }).toEqual({
          context,
          keys: ['api_key', 'api_key_expires_at', 'api_token', 'company', 'user'],
        });
        const me = await t.http.get('/').set('Authorization', `Token token=${res.body.api_token}`).expect(200);
        expect({ context, stored: me.body.company }).toEqual({ context, stored: res.body.company });
        expect(await counts()).toEqual({
          companies: before.companies + 1,
          users: before.users + 1,
          api_tokens: before.api_tokens + 1,
          api_keys: before.api_keys + 1,
        });
        return;
      }
      expect({ context, clientError: res.status >= 400 && res.status < 500 }).toEqual({ context, clientError: true });
      expectProblem(res, res.status, context);
      expect({ context, counts: await counts() }).toEqual({ context, counts: before });
    }

    it('as forms: a 201 whose credentials work, or a 4xx problem document and nothing stored', async () => {
      await fc.assert(
        fc.asyncProperty(body, async (sent) => {
          const before = await counts();
          const res = await register()
            .type('form')
            .send(new URLSearchParams(formPairs(sent)).toString());
          await check(res, before, `form ${JSON.stringify(sent).slice(0, 300)}`);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    }, 120_000);

    it('as JSON: the same', async () => {
      const json = fc.oneof(
        fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
        fc.jsonValue({ maxDepth: 2 }),
        nearlyValid,
      );
      await fc.assert(
        fc.asyncProperty(json, async (sent) => {
          const before = await counts();
          const res = await register().set('Content-Type', 'application/json').send(JSON.stringify(sent));
          await check(res, before, `json ${JSON.stringify(sent).slice(0, 300)}`);
        }),
        { numRuns: Math.ceil(RUNS / 2), endOnFailure: true },
      );
    }, 120_000);
  });
});

type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** Bracket names as form clients send them: `user[email]=…`, `password[]=…`. */
function formPairs(body: Record<string, FormValue>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const walk = (value: FormValue, name: string): void => {
    if (typeof value === 'string') pairs.push([name, value]);
    else if (Array.isArray(value)) value.forEach((item) => walk(item, `${name}[]`));
    else for (const [k, item] of Object.entries(value)) walk(item, `${name}[${k}]`);
  };
  for (const [k, v] of Object.entries(body)) walk(v, k);
  return pairs;
}
