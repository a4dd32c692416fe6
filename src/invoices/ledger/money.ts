// The one place that keeps an invoice's money fields consistent: open = original + reminder fees +
// default interest + flat fee − payments − waived rests. Payments settle costs (reminder fees and the
// § 288 (5) flat fee) first, then interest, then the principal (BGB § 367). Exact decimal arithmetic.
import { Decimal } from '../common/money.js';

export interface MoneyState {
  originalTotal: Decimal.Value;
  reminderFees: Decimal.Value;
  paidAmount: Decimal.Value;
  waivedAmount?: Decimal.Value;
  defaultInterest?: Decimal.Value;
  flatFee?: Decimal.Value;
}

export interface MoneyFields {
  originalTotal: string;
  reminderFees: string;
  defaultInterest: string;
  flatFee: string;
  paidAmount: string;
  waivedAmount: string;
  openAmount: string;
}

/** The money state an invoice row holds now (to change one part of it and recompute the rest). */
export function moneyStateOf(invoice: { originalTotal: string; reminderFees: string; paidAmount: string; waivedAmount: string; defaultInterest: string; flatFee: string }): Required<MoneyState> {
  const { originalTotal, reminderFees, paidAmount, waivedAmount, defaultInterest, flatFee } = invoice;
  return { originalTotal, reminderFees, paidAmount, waivedAmount, defaultInterest, flatFee };
}

export function moneyFields(state: MoneyState): MoneyFields {
  const original = new Decimal(state.originalTotal);
  const fees = new Decimal(state.reminderFees);
  const interest = new Decimal(state.defaultInterest ?? 0);
  const flat = new Decimal(state.flatFee ?? 0);
  const paid = new Decimal(state.paidAmount);
  const waived = new Decimal(state.waivedAmount ?? 0);
  return {
    originalTotal: original.toFixed(2),
    reminderFees: fees.toFixed(2),
    defaultInterest: interest.toFixed(2),
    flatFee: flat.toFixed(2),
    paidAmount: paid.toFixed(2),
    waivedAmount: waived.toFixed(2),
    openAmount: original.plus(fees).plus(interest).plus(flat).minus(paid).minus(waived).toFixed(2),
  };
}

/** Everything owed beyond the principal: reminder fees, flat fee, default interest. */
export function charges(state: MoneyState): Decimal {
  return new Decimal(state.reminderFees).plus(state.flatFee ?? 0).plus(state.defaultInterest ?? 0);
}

/** How the payments so far split by § 367 BGB: costs (fees and flat fee) first, then interest, then principal. */
export function allocation(state: MoneyState): { costsPaid: Decimal; interestPaid: Decimal; principalPaid: Decimal } {
  const costs = new Decimal(state.reminderFees).plus(state.flatFee ?? 0);
  const interest = new Decimal(state.defaultInterest ?? 0);
  let rest = Decimal.max(0, new Decimal(state.paidAmount));
  const costsPaid = Decimal.min(costs, rest);
  rest = rest.minus(costsPaid);
  const interestPaid = Decimal.min(interest, rest);
  return { costsPaid, interestPaid, principalPaid: rest.minus(interestPaid) };
}

export function isSettled(fields: Pick<MoneyFields, 'openAmount'>): boolean {
  return new Decimal(fields.openAmount).lessThanOrEqualTo(0);
}
