// The shipping mode as the service really resolves it: every combination of the invoice's, the
// customer's and the company's mode (and, for reminders, the reminder's) stored through the API,
// read back from the database and shipped through ShippingService — each decision in a transaction
// that is rolled back, so that the next combination starts from the same state. The expected outcome
// is written as the issue states the rule, level by level, not by calling the resolver.
import type { INestApplication } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import type { AppConfig } from '../src/config/app.config.js';
import { parsePublicId } from '../src/common/ids.js';
import type { Invoice } from '../src/invoices/invoice.entity.js';
import { InvoicesRepository } from '../src/invoices/invoices.repository.js';
import type { Shipment } from '../src/shipping/shipments/shipment.js';
import { ShippingService } from '../src/shipping/shipments/shipping.service.js';
import { makePdf } from './support/pdf.js';
import { shippingApi, shippingTestConfig } from './support/shipping.js';
import { dataSource, registerCompany, resetDatabase, startTestApp, type TestCompany } from './support/test-app.js';

const INVOICE_LEVEL = [null, 'email', 'post', 'dual_shipping', 'skip_shipping', 'manual_shipping', 'unknown'] as const;
const CUSTOMER_LEVEL = [null, 'email', 'post', 'dual_shipping', 'unknown'] as const;
const COMPANY_LEVEL = ['email', 'post', 'dual_shipping', 'manual_shipping', 'unknown'] as const;
const REMINDER_LEVEL = INVOICE_LEVEL;

type Level = string | null;
interface Expected {
  mode: string;
  source: 'reminder' | 'invoice' | 'customer' | 'company' | null;
}

/** "invoice shipping_mode → customer shipping_mode → company setting; unknown (or empty) falls through". */
function expectedForInvoice(invoice: Level, customer: Level, company: Level): Expected {
  if (invoice !== null && invoice !== 'unknown') return { mode: invoice, source: 'invoice' };
  if (customer !== null && customer !== 'unknown') return { mode: customer, source: 'customer' };
  if (company !== 'unknown') return { mode: company as string, source: 'company' };
  return { mode: 'unknown', source: null };
}

/** A reminder's own mode comes first; the invoice's skip_shipping (the client shipped the invoice) does not apply to its reminders. */
function expectedForReminder(reminder: Level, invoice: Level, customer: Level, company: Level): Expected {
  if (reminder !== null && reminder !== 'unknown') return { mode: reminder, source: 'reminder' };
  return expectedForInvoice(invoice === 'skip_shipping' ? null : invoice, customer, company);
}

/** What a decision with that mode looks like: its status and channels. */
function shapeOf(mode: string) {
  switch (mode) {
    case 'email':
      return { status: 'pending', emailStatus: 'pending', postStatus: null };
    case 'post':
      return { status: 'pending', emailStatus: null, postStatus: 'pending' };
    case 'dual_shipping':
      return { status: 'pending', emailStatus: 'pending', postStatus: 'pending' };
    case 'skip_shipping':
      return { status: 'skipped', emailStatus: null, postStatus: null };
    case 'manual_shipping':
      return { status: 'awaiting_confirmation', emailStatus: null, postStatus: null };
    default:
      return { status: 'needs_attention', emailStatus: null, postStatus: null };
  }
}

describe('shipping mode resolution through the database and ShippingService', () => {
  let app: INestApplication;
  let company: TestCompany;
  let companyId: string;
  /** invoices[customerMode][invoiceMode] → invoice uuid */
  const invoices = new Map<Level, Map<Level, string>>();

  beforeAll(async () => {
    app = await startTestApp({ ...shippingTestConfig(undefined, { SHIPPING_WORKERS: 'false' }) } as Partial<AppConfig>);
    await resetDatabase(app);
    company = await registerCompany(app);
    companyId = parsePublicId('cmp', company.id) as string;
    const api = shippingApi(app, company);
    const pdf = await makePdf('Rechnung');
    let n = 0;
    for (const customerMode of CUSTOMER_LEVEL) {
      const customer = await api.customer({ name: `Kunde ${customerMode}`, address_line1: 'Kunde', address_line3: 'Allee 2', zip: '20095', city: 'Hamburg', country_code: 'DE', ...(customerMode ? { shipping_mode: customerMode } : {}) });
      const contact = await api.contact({ customer_id: customer.id, name: 'Erika Muster', gender: '2', salutation: '0', email: 'erika@kunde.de' });
      const byMode = new Map<Level, string>();
      for (const invoiceMode of INVOICE_LEVEL) {
        const fields = { customer_id: customer.id, contact_id: contact.id, invoice_number: `M-${++n}`, total: '10', due_date: '2026-12-31', ...(invoiceMode ? { shipping_mode: invoiceMode } : {}) };
        const res = await api.createInvoice(fields, pdf).expect(201);
        byMode.set(invoiceMode, parsePublicId('inv', res.body.invoice.id) as string);
      }
      invoices.set(customerMode, byMode);
    }
  }, 120_000);
  afterAll(async () => app.close());

  /** Runs one decision in a transaction of its own and rolls it back. */
  async function decide(work: (runner: QueryRunner) => Promise<Shipment>): Promise<Shipment> {
    const runner = dataSource(app).createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      return await work(runner);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  /** The company level, through the API (committed: the decisions read it like any other). */
  const setCompanyMode = (mode: string) => shippingApi(app, company).patch('/api/v1/shipping_settings', { shipping_mode: mode }).expect(200);

  it('ships every invoice by the mode its levels name (7 × 5 × 5 combinations)', async () => {
    const service = app.get(ShippingService);
    let checked = 0;
    for (const companyMode of COMPANY_LEVEL) {
      await setCompanyMode(companyMode);
      for (const customerMode of CUSTOMER_LEVEL) {
        for (const invoiceMode of INVOICE_LEVEL) {
          const id = invoices.get(customerMode)!.get(invoiceMode)!;
          const shipment = await decide(async (runner) => {
            const invoice = (await app.get(InvoicesRepository).lockById(companyId, id, runner.manager)) as Invoice;
            await service.shipInvoice(runner.manager, invoice, { type: 'api', id: null }, { reason: null, unroutable: 'flag' });
            const [row] = await runner.manager.query(`SELECT shipping_mode, mode_source, status, email_status, post_status FROM shipments WHERE company_id = $1 AND invoice_id = $2`, [companyId, id]);
            return { shippingMode: row.shipping_mode, modeSource: row.mode_source, status: row.status, emailStatus: row.email_status, postStatus: row.post_status } as Shipment;
          });
          const expected = expectedForInvoice(invoiceMode, customerMode, companyMode);
          const label = `invoice ${invoiceMode} / customer ${customerMode} / company ${companyMode}`;
          expect({ label, ...shipment }).toEqual({ label, shippingMode: expected.mode, modeSource: expected.source, ...shapeOf(expected.mode) });
          checked++;
        }
      }
    }
    expect(checked).toBe(INVOICE_LEVEL.length * CUSTOMER_LEVEL.length * COMPANY_LEVEL.length);
  }, 180_000);

  it('ships every reminder by the mode its levels name (7 × 7 × 5 × 5 combinations)', async () => {
    const service = app.get(ShippingService);
    const db = dataSource(app);
    await db.query(`UPDATE invoices SET status = 'ready_for_reminder1' WHERE company_id = $1`, [companyId]);
    /** One issued reminder per invoice; its own mode is set per combination inside the rolled-back transaction. */
    const reminders = new Map<string, string>();
    for (const byMode of invoices.values()) {
      for (const invoiceId of byMode.values()) {
        const [{ id }] = await db.query(
          `INSERT INTO reminders (company_id, id, invoice_id, reminder_stage, reminder_date, fees, dispatched_at) VALUES ($1, gen_random_uuid(), $2, 1, '2026-12-07', 0, now()) RETURNING id`,
          [companyId, invoiceId],
        );
        reminders.set(invoiceId, id);
      }
    }
    let checked = 0;
    for (const companyMode of COMPANY_LEVEL) {
      await setCompanyMode(companyMode);
      for (const customerMode of CUSTOMER_LEVEL) {
        for (const invoiceMode of INVOICE_LEVEL) {
          const invoiceId = invoices.get(customerMode)!.get(invoiceMode)!;
          for (const reminderMode of REMINDER_LEVEL) {
            const reminderId = reminders.get(invoiceId)!;
            const shipment = await decide(async (runner) => {
              await runner.manager.query(`UPDATE reminders SET shipping_mode = $3 WHERE company_id = $1 AND id = $2`, [companyId, reminderId, reminderMode]);
              return service.shipReminder(runner.manager, companyId, reminderId, { type: 'run', id: null });
            });
            const expected = expectedForReminder(reminderMode, invoiceMode, customerMode, companyMode);
            const label = `reminder ${reminderMode} / invoice ${invoiceMode} / customer ${customerMode} / company ${companyMode}`;
            const { shippingMode, modeSource, status, emailStatus, postStatus } = shipment;
            expect({ label, shippingMode, modeSource, status, emailStatus, postStatus }).toEqual({ label, shippingMode: expected.mode, modeSource: expected.source, ...shapeOf(expected.mode) });
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(REMINDER_LEVEL.length * INVOICE_LEVEL.length * CUSTOMER_LEVEL.length * COMPANY_LEVEL.length);
  }, 300_000);
});
