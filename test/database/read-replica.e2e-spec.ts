// DATABASE_READ_URL against a real streaming standby (issue 22): the web app's dashboard, invoice list
// and CSV export are served by the standby; a session reads its own writes even while the standby's
// replay is paused; a standby far behind, or down, leaves the reads to the primary; the API never reads
// from it. The proof that a read came from the standby: with its replay paused, it shows what the
// primary no longer holds.
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createApp } from '../../src/app.setup.js';
import { runMigrations } from '../../src/database/migrate.js';
import { ReadReplica } from '../../src/database/sql/read-replica.js';
import { createCustomer } from '../support/factories.js';
import { invoiceApi, invoiceSuiteConfig } from '../support/invoice-factories.js';
import { testConfig } from '../support/test-app.js';
import { csrfOf, registerUser, signIn, type WebUser } from '../web/web-support.js';
import { postgresBinaries, type ReplicatedServers, startReplicatedServers } from './read-replica-servers.js';

const MAX_LAG_SECONDS = 6;
const bin = postgresBinaries();
if (!bin) console.log('read replica: skipped, no PostgreSQL with pg_basebackup under /usr/lib/postgresql (Debian package postgresql)');
const describeWithPostgres = bin ? describe : describe.skip;

/** The invoice numbers of the list page's rows. */
const listed = (html: string) =>
  [...html.matchAll(/<tr data-invoice="[^"]+"><td><a href="\/invoices\/inv-[^"]+">([^<]*)<\/a>/g)].map((m) => m[1]).sort();
/** The dashboard's open amount, as shown. */
const openFigure = (html: string) => /data-figure="open"[^>]*>([^<]*)</.exec(html)?.[1].replace(/\s/g, ' ');
/** Invoice number → open amount of the CSV export (German dialect: `;`, decimal comma). */
const csvOpenAmounts = (text: string) =>
  Object.fromEntries(
    text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .slice(1)
      .map((line) => line.split(';'))
      .map((cells) => [cells[0], cells[7]]),
  );

describeWithPostgres('read replica (DATABASE_READ_URL) on a standby made with pg_basebackup', () => {
  let servers: ReplicatedServers;
  let app: INestApplication;
  let user: WebUser;
  /** The same user in two browsers: one records a payment, the other only reads. */
  let writer: ReturnType<typeof request.agent>;
  let reader: ReturnType<typeof request.agent>;
  let api: ReturnType<typeof invoiceApi>;
  let customerId: string;
  let first: string;

  const newInvoice = async (number: string, total: string) =>
    (
      await api.createOk({
        customer_id: customerId,
        invoice_number: number,
        total,
        invoice_date: '2026-01-05',
        due_date: '2099-01-01',
        'options[autoskip_shipping]': 'true',
      })
    ).id as string;
  /** The standby's own view: a read connection of the service ran a statement of invoices there. */
  const servedByStandby = async () =>
    (
      await servers.standby<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE application_name = 'receivables-read' AND datname = current_database()`,
      )
    ).some((backend) => /FROM invoices/.test(backend.query));

  beforeAll(async () => {
    servers = await startReplicatedServers(bin!);
    await runMigrations(servers.primaryUrl);
    const base = testConfig();
    app = await createApp(
      testConfig({
        ...invoiceSuiteConfig('read-replica'),
        database: { ...base.database, readUrl: servers.standbyUrl, readMaxLagSeconds: MAX_LAG_SECONDS },
      }),
      servers.primaryUrl,
    );
    await app.init();
    user = await registerUser(app, 'Replika GmbH');
    api = invoiceApi(app, user.company);
    customerId = (await createCustomer(app, user.company, { name: 'Müller AG' })).id as string;
    first = await newInvoice('RE-1', '100');
    writer = request.agent(app.getHttpServer());
    reader = request.agent(app.getHttpServer());
    for (const agent of [writer, reader]) expect((await signIn(agent, user.email)).status).toBe(303);
    await servers.caughtUp();
  }, 120_000);

  afterAll(async () => {
    await servers?.primary('SELECT 1').catch(() => undefined);
    await app?.close();
    await servers?.stop();
  });

  it('serves the dashboard, the invoice list and the CSV export from the standby, the API from the primary', async () => {
    // Until the standby has served a list: the app's first look may find it a few bytes behind the
    // primary (the job queue writes too), and a standby whose lag is unknown is not used.
    for (let tries = 0; !(await servedByStandby()) && tries < 40; tries++) {
      expect(listed((await reader.get('/invoices').expect(200)).text)).toEqual(['RE-1']);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await servers.standby('SELECT pg_wal_replay_pause()');
    await newInvoice('RE-2', '250');

    expect(listed((await reader.get('/invoices').expect(200)).text)).toEqual(['RE-1']);
    expect(openFigure((await reader.get('/dashboard').expect(200)).text)).toBe('100,00 €');
    expect(Object.keys(csvOpenAmounts((await reader.get('/invoices/export.csv').expect(200)).text)).sort()).toEqual(['RE-1']);
    expect((await api.list().expect(200)).body.invoices).toHaveLength(2);
    expect(await servedByStandby()).toBe(true);
  });

  it('lets a session read its own write at once, while the standby is still paused', async () => {
    const invoicePage = await writer.get(`/invoices/${first}`).expect(200);
    await writer
      .post(`/invoices/${first}/payments`)
      .type('form')
      .send({ _csrf: csrfOf(invoicePage.text), amount: '40', payment_date: '2026-01-10' })
      .expect(303);

    // The writer's next pages come from the primary: its payment and the invoice of the API's client.
    expect(csvOpenAmounts((await writer.get('/invoices/export.csv').expect(200)).text)).toEqual({ 'RE-1': '60,00', 'RE-2': '250,00' });
    expect(openFigure((await writer.get('/dashboard').expect(200)).text)).toBe('310,00 €');
    // The other session, which wrote nothing, still reads the paused standby.
    expect(csvOpenAmounts((await reader.get('/invoices/export.csv').expect(200)).text)).toEqual({ 'RE-1': '100,00' });
  });

  it('leaves the reads to the primary once the paused standby is further behind than DATABASE_READ_MAX_LAG_SECONDS', async () => {
    const paused = Date.now();
    let seen = listed((await reader.get('/invoices').expect(200)).text);
    while (seen.length < 2 && Date.now() - paused < (MAX_LAG_SECONDS + 5) * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      seen = listed((await reader.get('/invoices').expect(200)).text);
    }
    expect(seen).toEqual(['RE-1', 'RE-2']);
  }, 30_000);

  it('uses the standby again when it has caught up, and the primary when the standby is down', async () => {
    await servers.standby('SELECT pg_wal_replay_resume()');
    await servers.caughtUp();
    await servers.standby('SELECT pg_wal_replay_pause()');
    await newInvoice('RE-3', '7');
    // Caught up and paused again: the reader sees the standby's three-less list once more.
    let seen = listed((await reader.get('/invoices').expect(200)).text);
    for (let tries = 0; seen.length !== 2 && tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = listed((await reader.get('/invoices').expect(200)).text);
    }
    expect(seen).toEqual(['RE-1', 'RE-2']);

    await servers.stopStandby();
    expect(listed((await reader.get('/invoices').expect(200)).text)).toEqual(['RE-1', 'RE-2', 'RE-3']);
    expect(openFigure((await reader.get('/dashboard').expect(200)).text)).toBe('317,00 €');
    expect(Object.keys(csvOpenAmounts((await reader.get('/invoices/export.csv').expect(200)).text)).sort()).toEqual([
      'RE-1',
      'RE-2',
      'RE-3',
    ]);
  }, 30_000);

  it('still redirects after a form when the write position cannot be read (the session keeps its last one)', async () => {
    const replica = app.get(ReadReplica);
    const writePosition = replica.writePosition.bind(replica);
    replica.writePosition = () => Promise.reject(new Error('the primary did not answer'));
    try {
      const invoicePage = await writer.get(`/invoices/${first}`).expect(200);
      const answer = await writer
        .post(`/invoices/${first}/payments`)
        .type('form')
        .send({ _csrf: csrfOf(invoicePage.text), amount: '10', payment_date: '2026-01-11' })
        .expect(303);
      expect(answer.headers.location).toBe(`/invoices/${first}`);
    } finally {
      replica.writePosition = writePosition;
    }
    expect(csvOpenAmounts((await writer.get('/invoices/export.csv').expect(200)).text)['RE-1']).toBe('50,00');
  });
});
