// The service run as `npm start` runs it (a process of its own, nothing silenced) writes nothing but
// JSON lines: a library's console output (pdf-lib repairing a damaged PDF) comes as a JSON line under the
// request's id, node-postgres gives no deprecation warning (no query sent to a transaction's connection
// while it runs another), and SIGTERM shuts it down with exit code 0 and no error-level line.
// With the embedded database, SIGTERM stops it after the app (its own exit hooks used to stop it under the app).
import { chmodSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import request from 'supertest';
import { runMigrations } from '../../src/database/migrate.js';
import { freePort, startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { resetDatabase, startTestApp, testDatabaseUrl } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';

/** A one-page invoice PDF with an invalid object in front of its first one: its offsets are off, so the upload check parses it whole. */
async function damagedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('Rechnung', { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  const text = Buffer.from(await doc.save({ useObjectStreams: false })).toString('latin1');
  const first = text.indexOf('1 0 obj');
  return Buffer.from(`${text.slice(0, first)}99 0 obj\n<< /Broken ] >>\nendobj\n${text.slice(first)}`, 'latin1');
}

describe('clean logs of the service process', () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    await runMigrations(testDatabaseUrl());
    const app = await startTestApp();
    await resetDatabase(app);
    await app.close();
    service = await startServiceProcess({
      APP_ENV: 'development',
      DATABASE_URL: testDatabaseUrl(),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'receivables-clean-logs-')),
      LOG_LEVEL: 'info',
      SHIPPING_RETRY_LIMIT: '0',
    });
  }, 120_000);
  afterAll(async () => service?.stop());

  it('writes only JSON lines, library warnings included, no deprecation warning, and stops on SIGTERM without an error line', async () => {
    let sent = 0;
    const http = () => {
      sent++;
      return request(service.origin);
    };
    const registered = await http()
      .post('/api/v1/registrations')
      .type('form')
      .send({ company_name: 'Muster GmbH', email: 'logs@muster.de', password: 'Sicher!Passwort1' })
      .expect(201);
    const auth = `Token token=${registered.body.api_token}`;
    const customer = await http()
      .post('/api/v1/customers')
      .set('Authorization', auth)
      .type('form')
      .send({ name: 'Kunde AG', address_line1: 'Kunde AG', address_line3: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country_code: 'DE' })
      .expect(201);
    await http()
      .post('/api/v1/contacts')
      .set('Authorization', auth)
      .type('form')
      .send({ name: 'Erika Muster', gender: '2', salutation: '0', email: 'erika@kunde.de', customer_id: customer.body.id })
      .expect(201);
    const upload = await http()
      .post('/api/v1/invoices')
      .set('Authorization', auth)
      .set('X-Request-ID', 'damaged-upload-1')
      .field('customer_id', customer.body.id)
      .field('invoice_number', '2026-001')
      .field('total', '119,00')
      .field('invoice_date', '21.11.2026')
      .field('due_date', '05.12.2026')
      .attach('invoice', await damagedPdf(), { filename: 'rechnung.pdf', contentType: 'application/pdf' })
      .expect(201);
    const invoiceId = upload.body.invoice.id as string;
    // Reads several things about the invoice inside the transaction that ships it.
    await http().post(`/api/v1/invoices/${invoiceId}/release`).set('Authorization', auth).expect(202);
    await http().post(`/api/v1/invoices/${invoiceId}/payments`).set('Authorization', auth).type('form').send({ amount: '50' }).expect(201);
    // Shipping (in the background, development mail into DATA_DIR/outbox) ends with the invoice sent.
    const deadline = Date.now() + 60_000;
    let status = 'draft';
    while (status !== 'sent' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await http().get(`/api/v1/invoices/${invoiceId}`).set('Authorization', auth).expect(200)).body.invoice.invoice_status;
    }
    expect(status).toBe('sent');
    // A client can have its answer before the service's 'finish' writes the access line: SIGTERM only once all are written.
    await waitFor(() => Promise.resolve(apiAccessLines(service) >= sent), 'the access line of every API request', 10_000);

    expect(await service.stop()).toBe(0);
    const lines = service.lines(); // throws on a line that is not JSON
    expect(service.stderr()).toBe('');
    expect(service.stdout()).not.toContain('DeprecationWarning');
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ msg: 'SIGTERM: shut down' });
    expect(lines.filter((line) => line.context === 'pdf-lib')).toEqual([
      expect.objectContaining({
        level: 40,
        request_id: 'damaged-upload-1',
        msg: 'pdf-lib warned while reading an uploaded PDF whose cross-references are damaged',
        warnings: [expect.stringContaining('Trying to parse invalid object'), 'Invalid object ref: 99 0 R'],
      }),
    ]);
  }, 180_000);
});

describe('SIGTERM with the embedded database (npm start without DATABASE_URL)', () => {
  it('closes the app, then stops the embedded PostgreSQL, exit code 0 and no error line', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'receivables-embedded-'));
    chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as the postgres user and must reach its folder
    const pgPort = await freePort();
    const service = await startServiceProcess(
      { APP_ENV: 'development', DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), LOG_LEVEL: 'info' },
      180_000,
    );
    await request(service.origin).get('/health/ready').expect(200);
    expect(await service.stop()).toBe(0);
    const lines = service.lines();
    expect(service.stderr()).toBe('');
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ msg: 'SIGTERM: shut down' });
    // The database is down with the service: nothing listens on its port any more.
    await expect(portAnswers(pgPort)).resolves.toBe(false);
  }, 240_000);
});

/** The access lines of API requests written so far (a line still being written is not counted). */
function apiAccessLines(service: ServiceProcess): number {
  const complete = service
    .stdout()
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.trim() !== '');
  return complete
    .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } })
    .filter((line) => line.msg === 'request completed' && line.req?.url?.startsWith('/api/v1/') === true).length;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
