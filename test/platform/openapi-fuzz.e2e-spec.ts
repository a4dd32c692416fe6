// Malformed requests for every operation of the OpenAPI document (and the authorization server's
// endpoints), sent with a real company's credentials and without: no answer is a 5xx, every 4xx is a
// problem document (RFC 9457; the OAuth endpoints may answer per RFC 6749 or with an HTML page), and a
// rejected request changes nothing in the database (a hash of every tenant table and of companies).
//   npm run test:fuzz                        the deeper run (FUZZ_RUNS requests per operation)
//   FUZZ_SEED=123 npm run test:fuzz -- -t 'POST /api/v1/customers'   repeats a failure (FUZZ_SHRINK=1 shrinks it)
import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import request, { type Response } from 'supertest';
import { createContact, createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { type FuzzRequest, fixedExamples, requestFor } from '../support/openapi-fuzz.js';
import { loadOperations, type Operation } from '../support/openapi-operations.js';
import { dataSource, registerCompany, startTestApp, type TestCompany, testConfig } from '../support/test-app.js';

/** `npm test` runs a few per operation; `npm run test:fuzz` sets more, FUZZ_RUNS as many as asked. */
const RUNS = Number(process.env.FUZZ_RUNS) || 30;
const SEED = Number(process.env.FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);
const SHRINK = process.env.FUZZ_SHRINK === '1';
const { operations } = loadOperations();

const CUSTOMER = {
  name: 'Fuzz Kunde GmbH',
  address_line1: 'Fuzz Kunde GmbH',
  address_line3: 'Weg 1',
  zip: '10115',
  city: 'Berlin',
  country_code: 'DE',
};
/** Valid bodies that the generator changes a field or two of, so that requests get past validation. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'post /api/v1/customers': CUSTOMER,
  'patch /api/v1/customers/{id}': { city: 'Köln', note: 'n' },
  'post /api/v1/contacts': { name: 'Erika Muster', gender: '2', salutation: '0', customer_id: '$customer', email: 'erika@example.com' },
  'patch /api/v1/contacts/{id}': { name: 'Max Muster' },
  'post /api/v1/invoices/{id}/payments': { amount: '10', payment_date: '2026-01-02' },
  'post /api/v1/registrations': { company_name: 'Neu GmbH', email: 'neu@example.com', password: 'Sicher!Passwort1' },
  'post /api/v1/oauth_applications': { name: 'ERP', redirect_uris: ['https://erp.example.com/cb'] },
  'put /api/v1/dunning_policy': { grace_days: 7, auto_ship: false },
  'post /v2/documents': {
    document_type: 'invoice',
    external_id: 'FUZZ-PUSH',
    amount: '119.00',
    customer_external_id: 'FUZZ-PUSH-CUS',
    customer: CUSTOMER,
    invoice_number: 'R-FUZZ',
    invoice_date: '2026-11-02',
    due_date: '16.11.2026',
  },
};

describe(`fuzzing every operation of the OpenAPI document (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS})`, () => {
  let app: INestApplication;
  let company: TestCompany;
  let other: TestCompany;
  const ids: Record<string, string> = {};
  let hashStatement = '';

  beforeAll(async () => {
    // No push worker and no cron ticks (the daily dunning run): background work would change the tables
    // while a rejected request is checked.
    const { integration, jobs } = testConfig();
    const push = { ...integration.push, worker: false };
    app = await startTestApp({
      ...invoiceSuiteConfig('openapi-fuzz'),
      integration: { ...integration, push },
      jobs: { ...jobs, schedule: false },
    });
    company = await registerCompany(app, 'Fuzz OpenAPI GmbH');
    other = await registerCompany(app, 'Andere Firma AG');
    const server = app.getHttpServer();
    const as = (req: request.Test, who = company) => req.set('Authorization', who.auth);
    ids.customer = (await createCustomer(app, company, { external_id: 'FUZZ-CUS' })).id;
    ids.contact = (await createContact(app, company, ids.customer, { external_id: 'FUZZ-CON' })).id;
    ids.other_customer = (await createCustomer(app, other, { external_id: 'FUZZ-OTHER' })).id;
    // Sent (shipping skipped), so that it takes payments.
    const invoice = await invoiceApi(app, company).createOk({
      customer_id: ids.customer,
      external_id: 'FUZZ-INV',
      total: '1000',
      'options[autoskip_shipping]': 'true',
    });
    ids.invoice = invoice.id;
    const paid = await as(request(server).post(`/api/v1/invoices/${ids.invoice}/payments`)).send({
      amount: '10',
      payment_date: '2026-01-02',
    });
    ids.payment = paid.body.invoice.payments[0].id;
    const application = await as(request(server).post('/api/v1/oauth_applications')).send({
      name: 'ERP',
      redirect_uris: ['https://erp.example.com/cb'],
    });
    ids.oauth_application = application.body.oauth_application.id;
    // A key of its own, so that deleting or rotating it leaves the key the requests authenticate with.
    const key = await as(request(server).post('/api/v1/api_keys')).send({ name: 'Fuzz' });
    ids.api_key = key.body.api_key.id;
    expect(Object.values(ids).every((id) => typeof id === 'string')).toBe(true);
    const tables: Array<{ table_name: string }> = await dataSource(app).query(
      `SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'company_id' ORDER BY table_name`,
    );
    const names = [...tables.map((t) => t.table_name), 'companies'];
    // A key's last use is when it was presented with its valid secret, whatever the request then asked
    // (like the access log): a rejected request may note it, once a minute at most.
    const row = (name: string) => (name === 'api_keys' ? `(to_jsonb(t) - 'last_used_at')::text` : 't::text');
    hashStatement = `SELECT ${names.map((name) => `(SELECT md5(coalesce(string_agg(${row(name)}, ',' ORDER BY ${row(name)}), '')) FROM ${name} t) AS "${name}"`).join(', ')}`;
  }, 120_000);
  afterAll(async () => app?.close());
  /** FUZZ_STATS=1 prints the statuses each operation answered: what the run reached beyond the 4xx. */
  const statuses: Record<string, Record<number, number>> = {};
  afterAll(
    () =>
      void (
        process.env.FUZZ_STATS === '1' &&
        console.log(
          Object.entries(statuses)
            .map(([op, counts]) => `${op} ${JSON.stringify(counts)}`)
            .join('\n'),
        )
      ),
  );

  const tenantTables = async (): Promise<Record<string, string>> => (await dataSource(app).query(hashStatement))[0];
  /** A dunning run started by an accepted request finishes after the answer: wait for it before hashing. */
  async function settled(): Promise<void> {
    for (let attempt = 0; attempt < 500; attempt++) {
      const [{ running }] = await dataSource(app).query(`SELECT count(*)::int AS running FROM dunning_runs WHERE status = 'running'`);
      if (!running) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The collection a `$` path segment belongs to decides which real record's id it stands for. */
  const COLLECTIONS: Record<string, string> = {
    customers: 'customer',
    contacts: 'contact',
    invoices: 'invoice',
    payments: 'payment',
    oauth_applications: 'oauth_application',
    api_keys: 'api_key',
  };
  function resolve(req: FuzzRequest): { url: string; body?: string } {
    const segments = req.path.split('/').map((segment, i, all) => {
      if (segment !== '$') return segment;
      if (all[i - 1] === 'find') return all[i - 2] === 'invoices' ? 'FUZZ-INV' : all[i - 2] === 'contacts' ? 'FUZZ-CON' : 'FUZZ-CUS';
      return ids[COLLECTIONS[all[i - 1]]] ?? 'xyz-00000000-0000-4000-8000-000000000000';
    });
    const named = (text: string) =>
      text.replace(/\$(customer|contact|invoice|payment|other_customer|oauth_application|api_key)\b/g, (_, name: string) => ids[name]);
    const url = named(segments.join('/')) + (req.query ? `?${req.query.replace(/%24/g, '$')}` : '');
    return { url: named(url), body: req.body === undefined ? undefined : named(req.body) };
  }

  function send(req: FuzzRequest): Promise<Response> {
    const { url, body } = resolve(req);
    const test = (request(app.getHttpServer()) as unknown as Record<string, (url: string) => request.Test>)[req.method](url);
    const auth = {
      token: company.auth,
      apikey: `ApiKey ${company.apiKey}`,
      other_company: other.auth,
      garbage: 'Token token=rtk_not-a-token',
      none: undefined,
    }[req.auth];
    if (auth) test.set('Authorization', auth);
    test.set(req.headers);
    if (req.contentType !== undefined) test.set('Content-Type', req.contentType);
    return body === undefined ? test : test.send(body);
  }

  /** Why an answer breaks the rules, or null. */
  function violation(op: Operation, res: Response): string | null {
    if (res.status >= 500) return `status ${res.status}`;
    if (res.status < 400) return null;
    const type = String(res.headers['content-type'] ?? '');
    if (op.oauth && /^application\/json/.test(type))
      return typeof res.body?.error === 'string' ? null : 'an OAuth error without `error` (RFC 6749)';
    if (op.oauth && /^text\/html/.test(type)) return null;
    if (!/^application\/problem\+json/.test(type)) return `a ${res.status} of type "${type}", not a problem document`;
    const body = res.body ?? {};
    const fields = ['type', 'title', 'detail'].filter((name) => typeof body[name] !== 'string');
    if (fields.length || body.status !== res.status) return `a problem document without ${fields.join(', ') || 'the right status'}`;
    return null;
  }

  const show = (req: FuzzRequest) => {
    const { url, body } = resolve(req);
    const cut = (text: string) => (text.length > 3000 ? `${text.slice(0, 2000)} … ${text.slice(-1000)} (${text.length} characters)` : text);
    return `${req.method.toUpperCase()} ${cut(url)}\nauth: ${req.auth}, headers: ${JSON.stringify(req.headers)}, content-type: ${req.contentType}\nbody: ${body === undefined ? '(none)' : cut(JSON.stringify(body))}`;
  };

  it('covers every operation the app serves', async () => {
    const served = (await request(app.getHttpServer()).get('/api/docs-json').expect(200)).body as { paths: Record<string, object> };
    const servedOps = Object.entries(served.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => m !== 'parameters')
        .map((m) => `${m} ${path}`),
    );
    expect(operations.map((op) => `${op.method} ${op.path}`).sort()).toEqual(servedOps.sort());
  });

  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s',
    async (name, op) => {
      let before = await tenantTables();
      const property = fc.asyncProperty(requestFor(op, VALID_BODIES[`${op.method} ${op.path}`]), async (req) => {
        const res = await send(req);
        const counts = (statuses[name] ??= {});
        counts[res.status] = (counts[res.status] ?? 0) + 1;
        const problem = violation(op, res);
        if (problem) throw new Error(`${problem}\n${show(req)}\nanswer: ${res.status} ${String(res.text ?? '').slice(0, 600)}`);
        if (res.status < 400 && req.method !== 'get') await settled();
        const after = await tenantTables();
        const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
        before = after;
        if (res.status >= 400 && changed.length)
          throw new Error(
            `a rejected request (${res.status}) changed ${changed.join(', ')}\n${show(req)}\nanswer: ${res.text.slice(0, 600)}`,
          );
        const polluted = Object.keys(Object.prototype);
        if (polluted.length) throw new Error(`Object.prototype was polluted: ${polluted.join(', ')}\n${show(req)}`);
      });
      const examples = fixedExamples(op).map((req): [FuzzRequest] => [req]);
      const result = await fc.check(property, { seed: SEED, numRuns: RUNS + examples.length, examples, endOnFailure: !SHRINK });
      if (result.failed) {
        const cause = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
        throw new Error(
          `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npm run test:fuzz -- -t '${name}' repeats this (run ${result.numRuns}):\n${cause}`,
        );
      }
    },
    Math.max(60_000, RUNS * 1000),
  );
});
