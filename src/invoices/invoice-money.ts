// The one place that keeps an invoice's money fields consistent: open = original + fees − payments −
// waived rests, with payments settling fees first, then the principal. Exact decimal arithmetic.
import { Decimal } from '../common/money.js';

export interface MoneyState {
  originalTotal: Decimal.Value;
  reminderFees: Decimal.Value;
  paidAmount: Decimal.Value;
  waivedAmount?: Decimal.Value;
}

export interface MoneyFields {
  originalTotal: string;
  reminderFees: string;
  paidAmount: string;
  waivedAmount: string;
  openAmount: string;
}

export function moneyFields(state: MoneyState): MoneyFields {
  const original = new Decimal(state.originalTotal);
  const fees = new Decimal(state.reminderFees);
  const paid = new Decimal(state.paidAmount);
  const waived = new Decimal(state.waivedAmount ?? 0);
  return {
    originalTotal: original.toFixed(2),
    reminderFees: fees.toFixed(2),
    paidAmount: paid.toFixed(2),
    waivedAmount: waived.toFixed(2),
    openAmount: original.plus(fees).minus(paid).minus(waived).toFixed(2),
  };
}

/** How the payments so far split into fees and principal (fees first). */
export function allocation(state: MoneyState): { feesPaid: Decimal; principalPaid: Decimal } {
  const fees = new Decimal(state.reminderFees);
  const paid = new Decimal(state.paidAmount);
  const feesPaid = Decimal.max(0, Decimal.min(fees, paid));
  return { feesPaid, principalPaid: paid.minus(feesPaid) };
}

export function isSettled(fields: Pick<MoneyFields, 'openAmount'>): boolean {
  return new Decimal(fields.openAmount).lessThanOrEqualTo(0);
}
