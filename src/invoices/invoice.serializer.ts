// The exact wire JSON of an invoice (spec: Invoice), with its payments, reminders and reduced
// customer and contact, and of its event history.
import type { Contact } from '../contacts/contact.entity.js';
import type { Customer } from '../customers/customer.entity.js';
import { type SerializeContext, serializeCustomerReference } from '../customers/customer.serializer.js';
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import { Decimal, formatDecimal } from '../common/money.js';
import type { InvoiceEvent } from './invoice-event.entity.js';
import type { Invoice } from './invoice.entity.js';
import { charges } from './ledger/money.js';
import type { Payment } from './payment.entity.js';
import type { Reminder } from './reminder.entity.js';

export interface InvoiceView {
  invoice: Invoice;
  customer: Customer;
  contact: Contact | null;
  payments: Payment[];
  reminders: Reminder[];
}

function serializeContactReference(contact: Contact, ctx: SerializeContext) {
  return {
    id: toPublicId('con', contact.id),
    external_id: contact.externalId,
    name: contact.name,
    gender: contact.gender,
    salutation: contact.salutation,
    email: contact.email,
    created_at: formatDateTime(contact.createdAt, ctx.timeZone),
    updated_at: formatDateTime(contact.updatedAt, ctx.timeZone),
  };
}

export function serializePayment(payment: Payment, ctx: SerializeContext) {
  return {
    id: toPublicId('pay', payment.id),
    external_id: payment.externalId,
    amount: formatDecimal(payment.amount),
    payment_date: payment.paymentDate,
    note: payment.note,
    source: payment.source,
    inkasso_payment: String(payment.inkassoPayment),
    created_at: formatDateTime(payment.createdAt, ctx.timeZone),
    updated_at: formatDateTime(payment.updatedAt, ctx.timeZone),
  };
}

/** The reminder's charges, one line each: its fee, and (extensions) BGB § 288 default interest and flat fee. */
export function reminderLines(reminder: Reminder) {
  return [
    { kind: 'fee', amount: formatDecimal(reminder.fees) },
    ...(reminder.interestFrom
      ? [{ kind: 'default_interest', amount: formatDecimal(reminder.defaultInterest), from: reminder.interestFrom, until: reminder.interestUntil, points_above_base_rate: formatDecimal(reminder.interestPoints ?? '0') }]
      : []),
    ...(new Decimal(reminder.flatFee).greaterThan(0) ? [{ kind: 'flat_fee', amount: formatDecimal(reminder.flatFee) }] : []),
  ];
}

export function serializeReminder(reminder: Reminder, ctx: SerializeContext) {
  return {
    id: toPublicId('rem', reminder.id),
    reminder_stage: reminder.reminderStage,
    reminder_date: reminder.reminderDate,
    last_sent_at: formatDateTime(reminder.lastSentAt, ctx.timeZone),
    shipping_mode: reminder.shippingMode,
    fees: formatDecimal(reminder.fees),
    default_interest: formatDecimal(reminder.defaultInterest),
    flat_fee: formatDecimal(reminder.flatFee),
    lines: reminderLines(reminder),
  };
}

export function serializeInvoice({ invoice, customer, contact, payments, reminders }: InvoiceView, ctx: SerializeContext) {
  const id = toPublicId('inv', invoice.id);
  const url = `${ctx.publicUrl}/invoices/${id}`;
  return {
    id,
    external_id: invoice.externalId,
    invoice_status: invoice.status,
    invoice_number: invoice.invoiceNumber,
    service_url: url,
    invoice_attachment: invoice.attachmentKey ? `${ctx.publicUrl}/api/v1/invoices/${id}/attachment` : null,
    additional_number: invoice.additionalNumber,
    total: formatDecimal(new Decimal(invoice.originalTotal).plus(charges(invoice))),
    original_total: formatDecimal(invoice.originalTotal),
    reminder_fees: formatDecimal(invoice.reminderFees),
    default_interest: formatDecimal(invoice.defaultInterest),
    flat_fee: formatDecimal(invoice.flatFee),
    waived_amount: formatDecimal(invoice.waivedAmount),
    open_amount: formatDecimal(invoice.openAmount),
    order_date: invoice.orderDate,
    invoice_date: invoice.invoiceDate,
    due_date: invoice.dueDate,
    time_for_payment: invoice.timeForPayment,
    source: invoice.source,
    shipping_mode: invoice.shippingMode,
    written_off_at: formatDateTime(invoice.writtenOffAt, ctx.timeZone),
    ignore_reminder_fees: invoice.ignoreReminderFees,
    dunning_block: invoice.dunningBlockReason ? { reason: invoice.dunningBlockReason, until: invoice.dunningBlockUntil } : null,
    created_at: formatDateTime(invoice.createdAt, ctx.timeZone),
    updated_at: formatDateTime(invoice.updatedAt, ctx.timeZone),
    customer: serializeCustomerReference(customer, ctx),
    contact: contact && serializeContactReference(contact, ctx),
    payments: payments.map((p) => serializePayment(p, ctx)),
    reminders: reminders.map((r) => serializeReminder(r, ctx)),
  };
}

export function serializeEvent(event: InvoiceEvent, ctx: SerializeContext) {
  return {
    id: Number(event.id),
    kind: event.kind,
    from_status: event.fromStatus,
    to_status: event.toStatus,
    actor: { type: event.actorType, id: event.actorId },
    reason: event.reason,
    details: event.details,
    created_at: formatDateTime(event.createdAt, ctx.timeZone),
  };
}
