// The money rule has two forms made from one definition (src/invoices/ledger/money.ts): exact decimals
// in TypeScript and SQL for the set-based statements. For random sequences of charges, payments (and
// payments taken back) and waivers, both must arrive at the same open amount and the same § 367 split.
// The SQL form runs in PostgreSQL over a table with the invoice's money columns.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import pg from 'pg';
import { Decimal } from '../../src/common/money.js';
import { runMigrations } from '../../src/database/migrate.js';
import { addMoneySql, allocation, allocationSql, MONEY_TERMS, type MoneyPart, moneyFields, openAmountSql, withAdded } from '../../src/invoices/ledger/money.js';
import { testDatabaseUrl } from '../support/test-app.js';

type Step = { part: Exclude<MoneyPart, 'originalTotal'>; amount: string };

const cents = (min: number, max: number) => fc.integer({ min, max }).map((n) => new Decimal(n).dividedBy(100).toFixed(2));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ part: fc.constantFrom('reminderFees' as const, 'flatFee' as const, 'defaultInterest' as const), amount: cents(0, 5_000) }),
  // Payments, and payments deleted again (negative).
  fc.record({ part: fc.constant('paidAmount' as const), amount: cents(-20_000, 200_000) }),
  fc.record({ part: fc.constant('waivedAmount' as const), amount: cents(0, 5_000) }),
);

describe('the money rule', () => {
  let client: pg.Client;

  beforeAll(async () => {
    await runMigrations(testDatabaseUrl());
    client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    await client.query(`CREATE TEMP TABLE ledger_money (${[...MONEY_TERMS.map((t) => t.column), 'open_amount'].map((c) => `${c} numeric NOT NULL`).join(', ')})`);
  });

  afterAll(async () => {
    await client?.end();
  });

  /** The SQL form: a new row of the total, each step as the set-based statements book it, then the row and its split. */
  async function inSql(total: string, steps: Step[]) {
    await client.query('TRUNCATE ledger_money');
    const zero = Object.fromEntries(MONEY_TERMS.map((t) => [t.part, '0']));
    await client.query(
      `INSERT INTO ledger_money (${MONEY_TERMS.map((t) => t.column).join(', ')}, open_amount)
       VALUES (${MONEY_TERMS.map((t) => (t.part === 'originalTotal' ? '$1::numeric' : '0')).join(', ')}, ${openAmountSql('', { ...zero, originalTotal: '$1::numeric' })})`,
      [total],
    );
    for (const s of steps) await client.query(`UPDATE ledger_money i SET ${addMoneySql('i', { [s.part]: '$1::numeric' })}`, [s.amount]);
    const split = allocationSql('i');
    const { rows } = await client.query<Record<string, string>>(
      `SELECT i.open_amount::text AS open, (${openAmountSql('i')})::text AS recomputed, ${split.costsPaid}::text AS costs,
              ${split.interestPaid}::text AS interest, ${split.principalPaid}::text AS principal FROM ledger_money i`,
    );
    return rows[0];
  }

  it('has TypeScript and SQL forms that agree on the open amount and the § 367 split', async () => {
    await fc.assert(
      fc.asyncProperty(cents(0, 1_000_000), fc.array(step, { maxLength: 12 }), async (total, steps) => {
        const state = steps.reduce((s, { part, amount }) => withAdded(s, { [part]: amount }), withAdded({ originalTotal: total, reminderFees: 0, paidAmount: 0 }, {}));
        const fields = moneyFields(state);
        const split = allocation(state);
        const sql = await inSql(total, steps);
        expect(new Decimal(sql.open).toFixed(2)).toBe(fields.openAmount);
        expect(new Decimal(sql.recomputed).toFixed(2)).toBe(fields.openAmount);
        expect([sql.costs, sql.interest, sql.principal].map((v) => new Decimal(v).toFixed(2))).toEqual(
          [split.costsPaid, split.interestPaid, split.principalPaid].map((v) => v.toFixed(2)),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('settles costs, then interest, then principal in both forms', async () => {
    const steps: Step[] = [
      { part: 'reminderFees', amount: '5.00' },
      { part: 'flatFee', amount: '40.00' },
      { part: 'defaultInterest', amount: '1.23' },
      { part: 'paidAmount', amount: '50.00' },
    ];
    const sql = await inSql('100.00', steps);
    expect([sql.costs, sql.interest, sql.principal].map((v) => new Decimal(v).toFixed(2))).toEqual(['45.00', '1.23', '3.77']);
    expect(new Decimal(sql.open).toFixed(2)).toBe('96.23');
  });
});
