// What the invoice page offers beyond the status actions — the edit form's fields, the confirmation of a
// letter shipped by hand, shipping a reminder again, the statement of claim — asked of the API's own rules
// (editable fields per status, the shipping service's conditions), never derived again here.
import type { Invoice } from '../../invoices/invoice.entity.js';
import { editableFields } from '../../invoices/invoice-rules.js';
import type { InvoiceEvent } from '../../invoices/invoice-event.entity.js';
import type { InvoiceView } from '../../invoices/invoice.serializer.js';
import { HANDED_OVER } from '../../shipping/letters/statements-of-claim.service.js';
import { sendTimeRefusal } from '../../shipping/routing/route.js';
import type { Shipment, ShipmentStatus } from '../../shipping/shipments/shipment.js';
import type { FormValues } from './form-input.js';

/** The fields of the edit form, in the API's names (UpdateInvoiceDto). */
export const EDIT_FIELDS = ['invoice_number', 'additional_number', 'external_id', 'invoice_date', 'due_date', 'total'] as const;
export type EditField = (typeof EDIT_FIELDS)[number];

/** The edit form's fields that PATCH may still change in the invoice's status. */
export function editable(invoice: Pick<Invoice, 'status'>): EditField[] {
  const allowed = editableFields(invoice.status);
  return EDIT_FIELDS.filter((field) => allowed === 'all' || allowed.includes(field));
}

/** The form's values as the invoice holds them (the total with the user's decimal separator). */
export function currentValues(invoice: Invoice, locale: string): Record<EditField, string> {
  const total = Number(invoice.originalTotal).toFixed(2);
  return {
    invoice_number: invoice.invoiceNumber ?? '',
    additional_number: invoice.additionalNumber ?? '',
    external_id: invoice.externalId ?? '',
    invoice_date: invoice.invoiceDate ?? '',
    due_date: invoice.dueDate ?? '',
    total: locale === 'de' ? total.replace('.', ',') : total,
  };
}

/**
 * What the user changed, as a PATCH body: only posted fields that differ from the invoice, so an unchanged
 * due date is not derived again. A changed field the status no longer allows (the status moved on while
 * the form was open) is sent all the same: the service refuses it by name and nothing changes.
 */
export function changedValues(posted: FormValues, current: Record<EditField, string>): FormValues {
  const changes: FormValues = {};
  for (const field of EDIT_FIELDS) {
    const value = posted[field]?.trim();
    if (value !== undefined && value !== current[field]) changes[field] = value;
  }
  return changes;
}

const SHIP_AGAIN_FROM: readonly ShipmentStatus[] = ['failed', 'needs_attention', 'cancelled'];

function latestOf(shipments: Shipment[], reminderId: string | null): Shipment | undefined {
  return shipments.filter((s) => s.reminderId === reminderId).at(-1); // ordered by creation
}

/** A manual_shipping letter waits for the client's confirmation (ShippingService.confirm's condition). */
export function awaitsConfirmation(view: InvoiceView, shipments: Shipment[], reminderId: string | null): boolean {
  const reminder = reminderId === null ? null : view.reminders.find((r) => r.id === reminderId);
  if (reminder === undefined) return false;
  return latestOf(shipments, reminderId)?.status === 'awaiting_confirmation' && sendTimeRefusal(view.invoice, reminder) === null;
}

/** An issued reminder whose shipment failed, was flagged or cancelled (ShippingService.shipReminderAgain's). */
export function canShipAgain(view: InvoiceView, shipments: Shipment[], reminderId: string): boolean {
  const reminder = view.reminders.find((r) => r.id === reminderId);
  if (!reminder?.dispatchedAt) return false;
  const latest = latestOf(shipments, reminderId);
  return latest !== undefined && SHIP_AGAIN_FROM.includes(latest.status) && sendTimeRefusal(view.invoice, reminder) === null;
}

/** The statement of claim exists once the invoice was handed to debt collection (StatementsOfClaim's rule). */
export function hasStatementOfClaim(invoice: Pick<Invoice, 'status'>, events: InvoiceEvent[]): boolean {
  return invoice.status === HANDED_OVER || events.some((event) => event.toStatus === HANDED_OVER);
}

export interface ShippingOffers {
  confirmInvoice: boolean;
  /** By reminder id. */
  confirmReminder: Set<string>;
  shipAgain: Set<string>;
  statementOfClaim: boolean;
}

export function shippingOffers(view: InvoiceView, shipments: Shipment[], events: InvoiceEvent[]): ShippingOffers {
  const ids = view.reminders.map((r) => r.id);
  return {
    confirmInvoice: awaitsConfirmation(view, shipments, null),
    confirmReminder: new Set(ids.filter((id) => awaitsConfirmation(view, shipments, id))),
    shipAgain: new Set(ids.filter((id) => canShipAgain(view, shipments, id))),
    statementOfClaim: hasStatementOfClaim(view.invoice, events),
  };
}
