// An invoice document's line items and delivery date as the invoice stores them (invoice-supply.ts),
// and the check that they agree with its amounts: at intake (422) when the document carries both, and
// when a later version changes a stored invoice (the document fails).
import { validationFailed } from '../../common/errors.js';
import { type InvoiceAmounts, type InvoiceSupply, type SupplyItem, supplyProblems } from '../../invoices/invoice-supply.js';
import type { InvoicePayload } from '../dto/push-document.dto.js';

type SupplyFields = Pick<InvoicePayload, 'line_items' | 'delivery_date' | 'delivery_end_date'>;

/** null: the document says nothing about what was supplied. */
export function pushedSupply(p: SupplyFields): InvoiceSupply | null {
  return mergedSupply(null, p);
}

/** A stored invoice's supply as a document changes it: a field left out stays, one sent as null is cleared. */
export function mergedSupply(stored: InvoiceSupply | null, p: SupplyFields): InvoiceSupply | null {
  const given = (key: keyof SupplyFields) => Object.prototype.hasOwnProperty.call(p, key);
  const pushedItems = (p.line_items ?? []).map((item) => ({
    description: item.description,
    quantity: item.quantity ?? null,
    unit: item.unit ?? null,
    unitPrice: item.unit_price ?? null,
    netAmount: item.net_amount,
    vatRate: item.vat_rate,
  }));
  const items = given('line_items') ? pushedItems : (stored?.items ?? []);
  const deliveryDate = given('delivery_date') ? (p.delivery_date ?? null) : (stored?.deliveryDate ?? null);
  const deliveryEndDate = given('delivery_end_date') ? (p.delivery_end_date ?? null) : (stored?.deliveryEndDate ?? null);
  return items.length === 0 && deliveryDate === null && deliveryEndDate === null ? null : { items, deliveryDate, deliveryEndDate };
}

/** A document whose lines do not add up to its amounts is refused before it is queued. */
export function assertSupplyAgrees(payload: Record<string, unknown>): void {
  const p = payload as unknown as InvoicePayload;
  const supply = pushedSupply(p);
  if (!supply) return;
  const errors = supplyProblems(supply, { net: p.net ?? null, vat7: p.vat7 ?? null, vat19: p.vat19 ?? null, total: p.amount });
  if (errors.length) throw validationFailed(errors);
}

/**
 * What a document makes of a stored invoice's supply, and which fields that changes (line_items,
 * delivery_date); lines that no longer agree with the invoice's amounts as changed fail the document.
 */
export function changedSupply(
  stored: InvoiceSupply | null,
  p: SupplyFields,
  amounts: InvoiceAmounts,
): { supply: InvoiceSupply | null; changed: string[] } {
  const supply = mergedSupply(stored, p);
  const changed: string[] = [];
  if (itemsText(supply) !== itemsText(stored)) changed.push('line_items');
  if (supply?.deliveryDate !== stored?.deliveryDate || supply?.deliveryEndDate !== stored?.deliveryEndDate) changed.push('delivery_date');
  const problems = supply ? supplyProblems(supply, amounts) : [];
  if (problems.length) throw validationFailed(problems);
  return { supply, changed };
}

/** The lines as comparable text (jsonb hands the stored ones back with their keys in its own order). */
const itemsText = (supply: InvoiceSupply | null) =>
  JSON.stringify((supply?.items ?? []).map((i: SupplyItem) => [i.description, i.quantity, i.unit, i.unitPrice, i.netAmount, i.vatRate]));
