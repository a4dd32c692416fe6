// Property tests of the interest engine against real PostgreSQL: for random sequences of payments (any
// date, also back-dated before days already charged) and interest charges, the interest charged never
// exceeds the interest owed for any day, no day is charged twice, and the § 367 allocation of the
// payments adds up to the payments. Each sequence runs in a transaction that is rolled back.
import fc from 'fast-check';
import { DataSource, type EntityManager } from 'typeorm';
import { addDays } from '../../src/common/calendar-date.js';
import { Decimal } from '../../src/common/money.js';
import { InterestCharges } from '../../src/invoices/interest/interest-charges.js';
import { InvoicesRepository } from '../../src/invoices/invoices.repository.js';
import { PaymentsService } from '../../src/invoices/payments.service.js';
import { withoutRateLimits } from '../support/factories.js';
import { DunningHarness } from '../support/dunning.js';
import { useTestApp } from '../support/use-test-app.js';

type Op = { kind: 'pay'; day: number; cents: number } | { kind: 'charge'; day: number };

class Rollback extends Error {}

describe('default interest: properties (fast-check, real PostgreSQL)', () => {
  let d: DunningHarness;
  let invoicePublicId: string;
  let companyId: string;
  let invoiceId: string;
  const t = useTestApp(withoutRateLimits(), { reset: 'manual' });
  const actor = { type: 'api' as const, id: null };
  // Days counted from 20.09.2026; reminder 2 charged 30.09.–06.10. (default since 30.09., see default-interest.e2e-spec.ts).
  const day = (n: number) => addDays('2026-09-20', n);
  const LAST = '2026-12-31';

  beforeAll(async () => {
    d = new DunningHarness(t.app);
    await d.reset('business');
    await d.policy({ default_interest: true, business_flat_fee: true });
    invoicePublicId = await d.sentInvoice('2026-09-15', '1190.00');
    await d.runUntil('2026-09-22', invoicePublicId, 'reminder1_sent');
    await d.runUntil('2026-10-06', invoicePublicId, 'reminder2_sent');
    companyId = d.company.id.slice('cmp-'.length);
    invoiceId = invoicePublicId.slice('inv-'.length);
  });
  beforeEach(() => t.db.query(`INSERT INTO base_interest_rates (valid_from, rate) VALUES ('2026-07-01', 1.27) ON CONFLICT DO NOTHING`));
  afterEach(() => t.db.query(`DELETE FROM base_interest_rates WHERE valid_from = '2026-07-01'`));

  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('pay' as const), day: fc.integer({ min: 0, max: 70 }), cents: fc.integer({ min: 1, max: 80_000 }) }),
    fc.record({ kind: fc.constant('charge' as const), day: fc.integer({ min: 17, max: 90 }) }),
  );

  async function apply(m: EntityManager, ops: Op[]): Promise<void> {
    const company = { id: companyId, name: 'test', timeZone: 'Europe/Berlin' };
    for (const o of ops) {
      if (o.kind === 'pay') {
        const dto = { amount: new Decimal(o.cents).div(100), payment_date: day(o.day) };
        await t.app.get(PaymentsService).recordWith(m, company, invoicePublicId, dto, actor);
      } else {
        const invoice = await t.app.get(InvoicesRepository).lockById(companyId, invoiceId, m);
        await t.app.get(InterestCharges).recordUntil(m, invoice!, day(o.day), actor);
      }
    }
  }

  /** Runs the ops in a transaction, hands its manager to check, rolls back. */
  async function inRolledBack(ops: Op[], check: (m: EntityManager) => Promise<void>): Promise<void> {
    await t.app
      .get(DataSource)
      .transaction(async (m) => {
        await apply(m, ops);
        await check(m);
        throw new Rollback();
      })
      .catch((e: unknown) => {
        if (!(e instanceof Rollback)) throw e;
      });
  }

  it('never charges more interest than is owed for any day, and no day twice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        await inRolledBack(ops, async (m) => {
          // Per day: the principal the lines charged on, net of corrections, against the principal owed now.
          const days: Array<{ day: string; charged: string; owed: string; interest_lines: number }> = await m.query(
            `SELECT g::date::text AS day, sum(l.principal)::text AS charged, x.principal::text AS owed,
                    count(*) FILTER (WHERE l.kind = 'interest')::int AS interest_lines
               FROM interest_lines l CROSS JOIN LATERAL generate_series(l.from_day, l.until_day, interval '1 day') g
               JOIN default_interest_days($1, $2, '2026-09-30', $3, 9) x ON x.day = g::date
              WHERE l.company_id = $1 AND l.invoice_id = $2
              GROUP BY g, x.principal ORDER BY g`,
            [companyId, invoiceId, LAST],
          );
          expect(days.length).toBeGreaterThan(0);
          for (const row of days) {
            expect(row.interest_lines).toBe(1);
            expect(new Decimal(row.charged).lessThanOrEqualTo(row.owed)).toBe(true);
          }
          // In cents: what the lines up to each day charged is at most what accrued by then, plus half a cent per line (rounding).
          const cumulative: Array<{ until_day: string; charged: string; owed: string; n: number }> = await m.query(
            `SELECT e.until_day::text, (SELECT sum(l.amount) FROM interest_lines l WHERE l.company_id = $1 AND l.invoice_id = $2 AND l.until_day <= e.until_day)::text AS charged,
                    (SELECT sum(x.interest) FROM default_interest_days($1, $2, '2026-09-30', e.until_day, 9) x WHERE x.day >= '2026-09-30')::text AS owed,
                    (SELECT count(*) FROM interest_lines l WHERE l.company_id = $1 AND l.invoice_id = $2 AND l.until_day <= e.until_day)::int AS n
               FROM (SELECT DISTINCT until_day FROM interest_lines WHERE company_id = $1 AND invoice_id = $2) e`,
            [companyId, invoiceId],
          );
          for (const row of cumulative) {
            expect(new Decimal(row.charged).lessThanOrEqualTo(new Decimal(row.owed).plus(new Decimal('0.005').times(row.n)))).toBe(true);
          }
        });
      }),
      { numRuns: 25 },
    );
  });

  it('allocates every payment in full by § 367: costs, then interest, then principal, the rest a surplus', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        await inRolledBack(ops, async (m) => {
          const [row]: Array<{ paid: string; allocated: string; negative: boolean; principal: string; early_surplus: boolean }> =
            await m.query(
              `SELECT (SELECT coalesce(sum(p.amount), 0) FROM payments p WHERE p.company_id = $1 AND p.invoice_id = $2)::text AS paid,
                    coalesce(sum(x.to_costs + x.to_interest + x.to_principal + x.surplus), 0)::text AS allocated,
                    coalesce(bool_or(x.to_costs < 0 OR x.to_interest < 0 OR x.to_principal < 0 OR x.surplus < 0), false) AS negative,
                    coalesce(sum(x.to_principal), 0)::text AS principal,
                    coalesce(bool_or(x.surplus > 0 AND x.principal > 0), false) AS early_surplus
               FROM default_interest_days($1, $2, '2026-09-30', $3, 9) x`,
              [companyId, invoiceId, LAST],
            );
          expect(row.allocated).toBe(row.paid);
          expect(row.negative).toBe(false);
          expect(new Decimal(row.principal).lessThanOrEqualTo('1190')).toBe(true);
          // A surplus only once the whole principal is paid (costs and interest come before it).
          expect(row.early_surplus).toBe(false);
        });
      }),
      { numRuns: 25 },
    );
  });
});
