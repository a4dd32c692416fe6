// Push with an API key: every document type end to end, identical and changed re-pushes, ordering
// per external_id, exactly-once effects, bad input, and tenancy.
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { PushDocumentsRepository } from '../../src/push/documents/push-documents.repository.js';
import { PushWorker } from '../../src/push/queue/push-worker.js';
import { expectProblem } from '../support/factories.js';
import {
  apiKeyAuth,
  auditSteps,
  customerFields,
  invoiceDocument,
  pushAccepted,
  pushDocument,
  quickPush,
  waitForStatus,
} from '../support/push.js';
import { makePdf } from '../support/pdf.js';
import { pdfText } from '../support/pdf-text.js';
import { registerCompany, testConfig } from '../support/test-app.js';
import { useTestApp } from '../support/use-test-app.js';

describe('push: POST /v2/documents with an API key', () => {
  let auth: string;

  const t = useTestApp(quickPush(), { company: true });
  beforeEach(() => {
    auth = apiKeyAuth(t.company.apiKey);
  });

  const get = (path: string) => t.http.get(path).set('Authorization', t.company.auth);

  it('accepts a customer document with 202 only once stored with its job, and processes it', async () => {
    const res = await pushDocument(t.app, auth, { document_type: 'customer', external_id: 'K-1', ...customerFields(1), amount: 0 });
    expect(res.status).toBe(202);
    expect(res.body.document).toMatchObject({
      id: expect.stringMatching(/^doc-[0-9a-f-]{36}$/),
      status: 'queued',
      document_type: 'customer',
      external_id: 'K-1',
      version: 1,
      attempts: 0,
    });
    expect(res.headers.location).toBe(`/v2/documents/${res.body.document.id}`);
    // The stored document is its own processing job (the worker may have taken it already).
    const [job] = await t.db.query(`SELECT status FROM push_documents WHERE id = $1`, [res.body.document.id.slice(4)]);
    expect(['queued', 'processing', 'processed']).toContain(job.status);
    const done = await waitForStatus(t.app, auth, res.body.document.id, ['processed']);
    expect(done).toMatchObject({
      status: 'processed',
      attempts: 1,
      outcome: 'applied',
      last_error: null,
      result: { type: 'customer', id: expect.stringMatching(/^cus-/) },
    });
    // Both answers are checked against openapi.json (test/setup/validate-responses.ts).
    await t.http.get(`/v2/documents/${res.body.document.id}`).set('Authorization', auth).expect(200);
    await t.http.get('/v2/documents?document_type=customer').set('Authorization', auth).expect(200);
    const customer = await get(`/api/v1/customers/${done.result!.id}`).expect(200);
    expect(customer.body).toMatchObject({ external_id: 'K-1', name: 'Kunde 1 GmbH' });
  });

  it('stores nothing when the connection breaks during the write: no 202 without the stored document', async () => {
    const send = jest
      .spyOn(t.app.get(PushDocumentsRepository), 'receiveMany')
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    try {
      const res = await pushDocument(t.app, auth, { document_type: 'customer', external_id: 'K-LOST', ...customerFields(1) });
      expectProblem(res, 503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      send.mockRestore();
    }
    const [{ documents, audit }] = await t.db.query(
      `SELECT (SELECT count(*)::int FROM push_documents) AS documents, (SELECT count(*)::int FROM push_audit_log) AS audit`,
    );
    expect({ documents, audit }).toEqual({ documents: 0, audit: 0 });
    // The client's retry of the same document is then a first push.
    expect((await pushDocument(t.app, auth, { document_type: 'customer', external_id: 'K-LOST', ...customerFields(1) })).status).toBe(202);
  });

  it('processes an invoice with a rendered PDF, then a payment and a credit memo against it', async () => {
    const invoiceDoc = await waitForStatus(t.app, auth, await pushAccepted(t.app, auth, invoiceDocument('RE-1', 'K-7')), ['processed']);
    expect(invoiceDoc.result).toMatchObject({ type: 'invoice', id: expect.stringMatching(/^inv-/) });
    const invoice = await get(`/api/v1/invoices/${invoiceDoc.result!.id}`).expect(200);
    expect(invoice.body.invoice).toMatchObject({
      external_id: 'RE-1',
      invoice_number: 'R-RE-1',
      original_total: '119.0',
      open_amount: '119.0',
      due_date: '2026-11-16',
      source: 'PUSH',
    });
    const pdf = await get(`/api/v1/invoices/${invoiceDoc.result!.id}/pdf`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const text = await pdfText(pdf.body as Buffer);
    for (const line of [
      'Kunde K-7 GmbH',
      // Without line items it is a payment request that names the invoice (invoice-kind.ts).
      'Zahlungsaufforderung / Rechnungskopie zur Rechnung Nr. R-RE-1',
      'Rechnungsdatum 02.11.2026',
      'Fällig am 16.11.2026',
      'Zu zahlender Betrag 119,00 €',
    ]) {
      expect(text).toContain(line);
    }

    const payment = await waitForStatus(
      t.app,
      auth,
      await pushAccepted(t.app, auth, {
        document_type: 'payment',
        external_id: 'Z-1',
        amount: 19.5,
        invoice_external_id: 're-1',
        payment_date: '03.11.2026',
      }),
      ['processed'],
    );
    expect(payment.result).toMatchObject({ type: 'payment', id: expect.stringMatching(/^pay-/) });
    const credit = await waitForStatus(
      t.app,
      auth,
      await pushAccepted(t.app, auth, { document_type: 'credit_memo', external_id: 'GS-1', amount: '9,50', invoice_external_id: 'RE-1' }),
      ['processed'],
    );
    expect(credit.result).toMatchObject({ type: 'credit' });
    const after = await get(`/api/v1/invoices/${invoiceDoc.result!.id}`).expect(200);
    expect(after.body.invoice.open_amount).toBe('90.0');
    expect(after.body.invoice.payments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ external_id: 'Z-1', amount: '19.5', payment_date: '2026-11-03', source: 'PUSH' }),
        expect.objectContaining({ external_id: 'credit_memo:GS-1', amount: '9.5', source: 'CREDIT_MEMO' }),
      ]),
    );
  });

  it('stores a pushed PDF as the invoice document', async () => {
    const pdf = await makePdf('Rechnung RE-PDF');
    const doc = await waitForStatus(
      t.app,
      auth,
      await pushAccepted(t.app, auth, invoiceDocument('RE-PDF', 'K-2', { pdf: pdf.toString('base64') })),
      ['processed'],
    );
    const res = await get(`/api/v1/invoices/${doc.result!.id}/pdf`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(res.body as Buffer, pdf)).toBe(0);
  });

  it('answers an identical re-push with the first document and queues nothing; a changed one is the next version', async () => {
    const body = { document_type: 'customer', external_id: 'K-9', ...customerFields(9) };
    const first = await pushAccepted(t.app, auth, body);
    const again = await pushDocument(t.app, auth, { ...body, external_id: 'k-9', zip: ' 10115 ', extra_field: 'ignored' });
    expect(again.status).toBe(200);
    expect(again.body.document.id).toBe(first);
    expect(again.headers['content-location']).toBe(`/v2/documents/${first}`);
    const changed = await pushDocument(t.app, auth, { ...body, city: 'Hamburg' });
    expect(changed.status).toBe(202);
    expect(changed.body.document).toMatchObject({ version: 2 });
    await waitForStatus(t.app, auth, changed.body.document.id, ['processed']);
    await waitForStatus(t.app, auth, first, ['processed']);
    const [{ n, city }] = await t.db.query(`SELECT count(*)::int AS n, max(city) AS city FROM customers WHERE external_id = 'K-9'`);
    expect({ n, city }).toEqual({ n: 1, city: 'Hamburg' });
    const docs = await t.db.query(`SELECT count(*)::int AS n FROM push_documents`);
    expect(docs[0].n).toBe(2);
    // The worker may start on the first before the re-push arrives: received_again falls anywhere after received.
    const steps = await auditSteps(t.app, first);
    expect(steps.filter((step) => step !== 'received_again')).toEqual(['received', 'attempt 1', 'succeeded 1']);
    expect(steps.indexOf('received_again')).toBeGreaterThan(0);
  });

  it('applies changed versions of one external_id in order, even when the first has to wait for its invoice', async () => {
    const v1 = await pushAccepted(t.app, auth, {
      document_type: 'payment',
      external_id: 'Z-7',
      amount: '10.00',
      invoice_external_id: 'RE-7',
    });
    await waitForStatus(t.app, auth, v1, ['failed']);
    const v2 = await pushAccepted(t.app, auth, {
      document_type: 'payment',
      external_id: 'Z-7',
      amount: '20.00',
      invoice_external_id: 'RE-7',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await waitForStatus(t.app, auth, v2, ['queued'])).attempts).toBe(0);
    await waitForStatus(t.app, auth, await pushAccepted(t.app, auth, invoiceDocument('RE-7', 'K-7')), ['processed']);
    await waitForStatus(t.app, auth, v2, ['processed'], 60_000);
    const first = await waitForStatus(t.app, auth, v1, ['processed']);
    expect(first.outcome).toBe('applied');
    const payments = await t.db.query(`SELECT amount::text AS amount FROM payments WHERE external_id = 'Z-7'`);
    expect(payments).toEqual([{ amount: '20.00' }]);
    // Waiting is quiet: one `deferred` row, and a handful of looks with growing delays, not one every second.
    expect((await auditSteps(t.app, v2)).filter((step) => step === 'deferred')).toEqual(['deferred']);
    const [{ looks }] = await t.db.query(`SELECT deferrals AS looks FROM push_documents WHERE id = $1`, [v2.slice(4)]);
    expect(looks).toBeLessThanOrEqual(6);
  }, 90_000);

  it('numbers many changed versions pushed at the same moment without a gap or a 5xx', async () => {
    const pushes = Array.from({ length: 16 }, (_, i) =>
      pushDocument(t.app, auth, { document_type: 'customer', external_id: 'K-STORM', ...customerFields('storm'), phone: `+49 30 ${i}` }),
    );
    const answers = await Promise.all(pushes);
    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(202));
    expect(answers.map((a) => a.body.document.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });

  it('books a payment once even when it is processed twice, at the same time or again later', async () => {
    await waitForStatus(t.app, auth, await pushAccepted(t.app, auth, invoiceDocument('RE-2', 'K-2')), ['processed']);
    const worker = t.app.get(PushWorker);
    const res = await pushDocument(t.app, auth, {
      document_type: 'payment',
      external_id: 'Z-2',
      amount: '50',
      invoice_external_id: 'RE-2',
    });
    const id = res.body.document.id.slice(4);
    // As if its attempt had started twice (a lease that ran out while the first run was still going).
    const lease = randomUUID();
    await t.db.query(
      `UPDATE push_documents SET status = 'processing', attempts = attempts + 1, lease_token = $2 WHERE id = $1 AND status = 'queued'`,
      [id, lease],
    );
    const document = (await t.app.get(PushDocumentsRepository).find(t.company.id.slice(4), id))!;
    const claimed = [{ document, companyName: 'x', timeZone: 'Europe/Berlin' }];
    await Promise.all([worker.process(claimed, lease), worker.process(claimed, lease)]);
    await worker.process(claimed, lease);
    await waitForStatus(t.app, auth, res.body.document.id, ['processed']);
    const payments = await t.db.query(`SELECT amount::text AS amount FROM payments WHERE external_id = 'Z-2'`);
    expect(payments).toEqual([{ amount: '50.00' }]);
    const invoice = await t.db.query(`SELECT open_amount::text AS open FROM invoices WHERE external_id = 'RE-2'`);
    expect(invoice).toEqual([{ open: '69.00' }]);
  });

  it('never changes a payment booked through the REST API: the pushed one with its external_id is dead-lettered at once', async () => {
    const invoiceDoc = await waitForStatus(t.app, auth, await pushAccepted(t.app, auth, invoiceDocument('RE-3', 'K-3')), ['processed']);
    const invoiceId = invoiceDoc.result!.id;
    const rest = await t.http
      .post(`/api/v1/invoices/${invoiceId}/payments`)
      .set('Authorization', t.company.auth)
      .type('form')
      .send({ amount: '30', external_id: 'Z-REST', payment_date: '01.11.2026' });
    expect(rest.status).toBe(201);
    const before = (await get(`/api/v1/invoices/${invoiceId}`).expect(200)).body.invoice;
    expect(before.open_amount).toBe('89.0');
    for (const [externalId, amount] of [
      ['z-rest', '50.00'],
      ['Z-REST', '30.00'],
    ]) {
      const id = await pushAccepted(t.app, auth, {
        document_type: 'payment',
        external_id: externalId,
        amount,
        invoice_external_id: 'RE-3',
        payment_date: '2026-11-01',
      });
      const dead = await waitForStatus(t.app, auth, id, ['dead_lettered']);
      expect(dead).toMatchObject({
        attempts: 1,
        result: null,
        last_error: expect.stringMatching(/^payment\.external_id_taken: .*through the REST API/),
      });
      expect(await auditSteps(t.app, id)).toEqual(['received', 'attempt 1', 'failed 1', 'dead_lettered']);
    }
    const after = (await get(`/api/v1/invoices/${invoiceId}`).expect(200)).body.invoice;
    expect(after.open_amount).toBe('89.0');
    expect(after.payments).toEqual(before.payments);
    expect(after.payments).toEqual([expect.objectContaining({ external_id: 'Z-REST', amount: '30.0', source: 'API' })]);
  });

  describe('bad input is refused and nothing is stored', () => {
    afterEach(async () => {
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM push_documents`);
      expect(n).toBe(0);
    });

    it('malformed JSON is a 400', async () => {
      const res = await t.http
        .post('/v2/documents')
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send('{"document_type": "payment",');
      expectProblem(res, 400);
    });

    it.each([
      ['an unknown document_type', { document_type: 'order', external_id: 'X' }, ['document_type']],
      ['no document_type', { external_id: 'X', amount: 1 }, ['document_type']],
      ['a payment without amount and invoice', { document_type: 'payment', external_id: 'Z' }, ['amount', 'invoice_external_id']],
      [
        'wrong types',
        { document_type: 'payment', external_id: 42, amount: 'zehn', invoice_external_id: ['RE-1'] },
        ['external_id', 'amount', 'invoice_external_id'],
      ],
      ['a negative payment', { document_type: 'payment', external_id: 'Z', amount: -5, invoice_external_id: 'RE-1' }, ['amount']],
      ['an invoice without customer', { document_type: 'invoice', external_id: 'RE', amount: 10 }, ['customer_external_id']],
      ['an incomplete nested customer', { ...invoiceDocument('RE', 'K'), customer: { name: 'X' } }, ['customer[address_line1]']],
      [
        'a customer without address',
        { document_type: 'customer', external_id: 'K', name: 'X GmbH' },
        ['address_line1', 'address_line3', 'zip', 'city', 'country_code'],
      ],
      ['a pdf that is no PDF', invoiceDocument('RE', 'K', { pdf: Buffer.from('hello').toString('base64') }), ['pdf']],
      [
        'an invoice due before its invoice date',
        invoiceDocument('RE', 'K', { invoice_date: '10.11.2026', due_date: '2026-11-01' }),
        ['due_date'],
      ],
      ['a time_for_payment that contradicts the dates', invoiceDocument('RE', 'K', { time_for_payment: 30 }), ['time_for_payment']],
      ['an array', [{ document_type: 'payment' }], ['body']],
    ])('%s is a 422 naming the fields', async (_what, body, fields) => {
      const res = await pushDocument(t.app, auth, body);
      expectProblem(res, 422);
      const named = (res.body.errors as Array<{ field: string }>).map((e) => e.field);
      for (const field of fields) expect(named).toContain(field);
    });

    it('a form body is a 415', async () => {
      const res = await t.http.post('/v2/documents').set('Authorization', auth).type('form').send({ document_type: 'payment' });
      expectProblem(res, 415);
    });
  });

  it("does not show another company's document", async () => {
    const id = await pushAccepted(t.app, auth, { document_type: 'customer', external_id: 'K-1', ...customerFields(1) });
    const other = await registerCompany(t.app);
    const res = await t.http.get(`/v2/documents/${id}`).set('Authorization', apiKeyAuth(other.apiKey));
    expectProblem(res, 404);
    const audit = await t.http.get(`/v2/audit_log?document_id=${id}`).set('Authorization', apiKeyAuth(other.apiKey)).expect(200);
    expect(audit.body.audit_log).toEqual([]);
  });
});

describe('push: invoice PDFs up to MAX_UPLOAD_MB', () => {
  const t = useTestApp(quickPush({}, { documents: { ...testConfig().documents, maxUploadMb: 1 } }), { reset: 'once', company: true });

  it('accepts a base64 PDF above the general body limit (MAX_BODY_KB) up to MAX_UPLOAD_MB, and refuses a larger one with 413', async () => {
    const auth = apiKeyAuth(t.company.apiKey);
    const fits = await makePdf('Rechnung RE-BIG', 1_000_000); // base64 about 1.33 MB: above MAX_BODY_KB (1024)
    expect(fits.length).toBeLessThanOrEqual(1024 * 1024);
    const doc = await waitForStatus(
      t.app,
      auth,
      await pushAccepted(t.app, auth, invoiceDocument('RE-BIG', 'K-1', { pdf: fits.toString('base64') })),
      ['processed'],
    );
    const stored = await t.http
      .get(`/api/v1/invoices/${doc.result!.id}/pdf`)
      .set('Authorization', t.company.auth)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(stored.body as Buffer, fits)).toBe(0);
    const shown = await t.http.get(`/v2/documents/${doc.id}`).set('Authorization', auth).expect(200);
    expect(shown.body.document.payload.pdf).toEqual({ bytes: fits.length });

    const tooLarge = await pushDocument(
      t.app,
      auth,
      invoiceDocument('RE-BIGGER', 'K-1', { pdf: (await makePdf('zu groß', 1_200_000)).toString('base64') }),
    );
    expectProblem(tooLarge, 413);
    expect(tooLarge.body).toMatchObject({ code: 'document.too_large', errors: [expect.objectContaining({ field: 'pdf' })] });
    const beyondBody = await pushDocument(
      t.app,
      auth,
      invoiceDocument('RE-BIGGEST', 'K-1', { pdf: (await makePdf('viel zu groß', 2_000_000)).toString('base64') }),
    );
    expectProblem(beyondBody, 413);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM push_documents`);
    expect(n).toBe(1);
  });
});
