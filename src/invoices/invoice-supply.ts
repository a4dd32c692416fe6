// What an invoice says was supplied and when (§ 14 (4) Nr. 5 and 6 UStG), as a pushed invoice without a
// PDF of its own may carry it: the service renders a complete invoice from it (src/shipping/letters/
// invoice-kind.ts decides). Stored with the invoice as one JSON value (invoices.supply).
import type { FieldError } from '../common/errors.js';
import { Decimal } from '../common/money.js';

/** VAT rates a line item may carry: the standard and the reduced rate (§ 12 (1) and (2) UStG). */
export const SUPPLY_VAT_RATES = [19, 7] as const;
export type SupplyVatRate = (typeof SUPPLY_VAT_RATES)[number];

export interface SupplyItem {
  description: string;
  /** Decimal text ("2.00"); null: not stated. */
  quantity: string | null;
  unit: string | null;
  /** Net price per unit, decimal text. */
  unitPrice: string | null;
  /** The line's net amount, decimal text. */
  netAmount: string;
  vatRate: SupplyVatRate;
}

export interface InvoiceSupply {
  items: SupplyItem[];
  /** The day of the supply, or the first day of the period with deliveryEndDate. */
  deliveryDate: string | null;
  deliveryEndDate: string | null;
}

/** The amounts a complete invoice shows besides its lines (decimal text; null: not given). */
export interface InvoiceAmounts {
  net: string | null;
  vat7: string | null;
  vat19: string | null;
  total: string;
}

/**
 * Where the lines and the invoice's amounts disagree (none: they agree). The lines' net amounts add up
 * to net, net and the VAT add up to the total, and each rate's VAT is its net amount times the rate,
 * give or take a cent per line (a system that rounds per line may differ from one that rounds the sum).
 */
export function supplyProblems(supply: InvoiceSupply, amounts: InvoiceAmounts): FieldError[] {
  const errors: FieldError[] = [];
  if (supply.deliveryEndDate !== null && (supply.deliveryDate === null || supply.deliveryEndDate < supply.deliveryDate))
    errors.push({ field: 'delivery_end_date', message: 'delivery_end_date needs a delivery_date on or before it' });
  if (supply.items.length === 0) return errors;
  if (amounts.net === null) return [...errors, { field: 'net', message: 'net is required with line_items' }];
  const sum = (values: Decimal.Value[]) => values.reduce<Decimal>((a, b) => a.plus(b), new Decimal(0));
  const lines = sum(supply.items.map((item) => item.netAmount));
  if (!lines.equals(amounts.net))
    errors.push({ field: 'line_items', message: `the line items' net amounts add up to ${lines.toFixed(2)}, not to net ${amounts.net}` });
  const gross = sum([amounts.net, amounts.vat7 ?? 0, amounts.vat19 ?? 0]);
  if (!gross.equals(amounts.total))
    errors.push({ field: 'net', message: `net, vat7 and vat19 add up to ${gross.toFixed(2)}, not to the amount ${amounts.total}` });
  for (const rate of SUPPLY_VAT_RATES) {
    const items = supply.items.filter((item) => item.vatRate === rate);
    const expected = sum(items.map((item) => item.netAmount))
      .times(rate)
      .dividedBy(100);
    const vat = new Decimal((rate === 7 ? amounts.vat7 : amounts.vat19) ?? 0);
    if (
      vat
        .minus(expected)
        .abs()
        .greaterThan(new Decimal('0.01').times(Math.max(items.length, 1)))
    )
      errors.push({
        field: `vat${rate}`,
        message: `vat${rate} ${vat.toFixed(2)} is not ${rate} % of the line items' net amounts at ${rate} %`,
      });
  }
  return errors;
}
