// The one rule that keeps an invoice's money fields consistent: open = original + reminder fees +
// default interest + flat fee − payments − waived rests. Payments settle costs (reminder fees and the
// § 288 (5) flat fee) first, then interest, then the principal (BGB § 367). The rule is data (signed
// terms and the settlement order); its TypeScript form (exact decimals) and its SQL form (for set-based
// statements) are both generated from it, and test/invoices/ledger-money.e2e-spec.ts proves they agree.
import { isZeroText } from '../../common/decimal-text.js';
import { Decimal } from '../../common/money.js';

export type MoneyPart = 'originalTotal' | 'reminderFees' | 'defaultInterest' | 'flatFee' | 'paidAmount' | 'waivedAmount';

/** The stored money parts, their columns and their sign in the open amount. */
export const MONEY_TERMS: ReadonlyArray<{ part: MoneyPart; column: string; sign: 1 | -1 }> = [
  { part: 'originalTotal', column: 'original_total', sign: 1 },
  { part: 'reminderFees', column: 'reminder_fees', sign: 1 },
  { part: 'defaultInterest', column: 'default_interest', sign: 1 },
  { part: 'flatFee', column: 'flat_fee', sign: 1 },
  { part: 'paidAmount', column: 'paid_amount', sign: -1 },
  { part: 'waivedAmount', column: 'waived_amount', sign: -1 },
];

/** § 367 BGB: what payments settle first; the rest of them goes to the principal. */
export const SETTLEMENT_ORDER: ReadonlyArray<{ name: 'costs' | 'interest'; parts: readonly MoneyPart[] }> = [
  { name: 'costs', parts: ['reminderFees', 'flatFee'] },
  { name: 'interest', parts: ['defaultInterest'] },
];

export interface MoneyState {
  originalTotal: Decimal.Value;
  reminderFees: Decimal.Value;
  paidAmount: Decimal.Value;
  waivedAmount?: Decimal.Value;
  defaultInterest?: Decimal.Value;
  flatFee?: Decimal.Value;
}

export type MoneyFields = Record<MoneyPart | 'openAmount', string>;

const valueOf = (state: MoneyState, part: MoneyPart) => new Decimal(state[part] ?? 0);

/** The money state an invoice row holds now (to change one part of it and recompute the rest). */
export function moneyStateOf(invoice: Record<MoneyPart, string>): Required<MoneyState> {
  const { originalTotal, reminderFees, paidAmount, waivedAmount, defaultInterest, flatFee } = invoice;
  return { originalTotal, reminderFees, paidAmount, waivedAmount, defaultInterest, flatFee };
}

/** The open amount of the rule, exactly. */
export function openAmountOf(state: MoneyState): Decimal {
  return MONEY_TERMS.reduce(
    (sum, t) => (t.sign > 0 ? sum.plus(valueOf(state, t.part)) : sum.minus(valueOf(state, t.part))),
    new Decimal(0),
  );
}

export function moneyFields(state: MoneyState): MoneyFields {
  const fields = {} as MoneyFields;
  for (const t of MONEY_TERMS) fields[t.part] = valueOf(state, t.part).toFixed(2);
  fields.openAmount = openAmountOf(state).toFixed(2);
  return fields;
}

/** The state after adding these amounts to its parts (a charge, a payment; negative to take back). */
export function withAdded(state: MoneyState, added: Partial<Record<MoneyPart, Decimal.Value>>): Required<MoneyState> {
  const next = {} as Record<MoneyPart, Decimal.Value>;
  for (const t of MONEY_TERMS) next[t.part] = valueOf(state, t.part).plus(added[t.part] ?? 0);
  return next;
}

const CHARGE_PARTS = SETTLEMENT_ORDER.flatMap((s) => s.parts);
const ZERO = new Decimal(0);

/**
 * Everything owed beyond the principal: reminder fees, flat fee, default interest. Parts at zero (most
 * invoices before their first reminder) are skipped without a Decimal (decimal-text.ts: a speed trick).
 */
export function charges(state: MoneyState): Decimal {
  let sum = ZERO;
  for (const part of CHARGE_PARTS) if (!isZeroText(state[part])) sum = sum.plus(valueOf(state, part));
  return sum;
}

/**
 * How the payments so far split by § 367 BGB. What the first k groups of SETTLEMENT_ORDER received is
 * least(their total, paid), so each group's share is the difference of two such minima. Interest owed is
 * what was charged plus what accrued since and is not charged yet (`accruedInterest`, as of the payment
 * date): § 367 counts the interest owed, not only what a reminder charged. The day-by-day form, payment
 * by payment, is the SQL function default_interest_days (migration 1764500000000).
 */
export function allocation(
  state: MoneyState,
  accruedInterest: Decimal.Value = 0,
): { costsPaid: Decimal; interestPaid: Decimal; principalPaid: Decimal } {
  const paid = Decimal.max(0, valueOf(state, 'paidAmount'));
  const shares: Record<string, Decimal> = {};
  let owed = new Decimal(0);
  let before = new Decimal(0);
  for (const group of SETTLEMENT_ORDER) {
    owed = group.parts.reduce((sum, part) => sum.plus(valueOf(state, part)), owed);
    if (group.name === 'interest') owed = owed.plus(accruedInterest);
    const upTo = Decimal.min(owed, paid);
    shares[group.name] = upTo.minus(before);
    before = upTo;
  }
  return { costsPaid: shares.costs, interestPaid: shares.interest, principalPaid: paid.minus(before) };
}

export function isSettled(fields: Pick<MoneyFields, 'openAmount'>): boolean {
  return new Decimal(fields.openAmount).lessThanOrEqualTo(0);
}

// ---- The SQL form of the same rule ----

/** SQL for each part of a row `alias`, or the expression given instead (e.g. EXCLUDED.original_total). */
type PartSql = Partial<Record<MoneyPart, string>>;
const partSql = (alias: string, instead: PartSql, part: MoneyPart) =>
  instead[part] ?? `${alias}.${MONEY_TERMS.find((t) => t.part === part)!.column}`;

/** The open amount as SQL over the row `alias`, with some parts given by other expressions (those given as '0' left out). */
export function openAmountSql(alias: string, instead: PartSql = {}): string {
  const terms = MONEY_TERMS.map((t) => ({ sign: t.sign, sql: partSql(alias, instead, t.part) })).filter((t) => t.sql !== '0');
  if (terms.length === 0) return '0';
  return terms.map((t, i) => `${i === 0 ? (t.sign > 0 ? '' : '-') : t.sign > 0 ? ' + ' : ' - '}${t.sql}`).join('');
}

/**
 * The SET list that adds these SQL amounts to parts of the row `alias` and keeps open_amount by the
 * rule: `paid_amount = i.paid_amount + (p.amount), open_amount = …`.
 */
export function addMoneySql(alias: string, added: PartSql): string {
  const changed: PartSql = {};
  for (const t of MONEY_TERMS) if (added[t.part]) changed[t.part] = `(${alias}.${t.column} + (${added[t.part]}))`;
  const sets = MONEY_TERMS.filter((t) => changed[t.part]).map((t) => `${t.column} = ${changed[t.part]}`);
  return [...sets, `open_amount = ${openAmountSql(alias, changed)}`].join(', ');
}

/** § 367 allocation as SQL over the row `alias` (and the SQL of the accrued, uncharged interest): costs_paid, interest_paid, principal_paid. */
export function allocationSql(alias: string, accruedInterest = '0'): { costsPaid: string; interestPaid: string; principalPaid: string } {
  const paid = `greatest(0, ${partSql(alias, {}, 'paidAmount')})`;
  const shares: Record<string, string> = {};
  const owed: string[] = [];
  let before = '0';
  for (const group of SETTLEMENT_ORDER) {
    owed.push(...group.parts.map((part) => partSql(alias, {}, part)));
    if (group.name === 'interest' && accruedInterest !== '0') owed.push(`(${accruedInterest})`);
    const upTo = `least(${owed.join(' + ')}, ${paid})`;
    shares[group.name] = `(${upTo} - ${before})`;
    before = upTo;
  }
  return { costsPaid: shares.costs, interestPaid: shares.interest, principalPaid: `(${paid} - ${before})` };
}
