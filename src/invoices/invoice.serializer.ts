// The exact wire JSON of an invoice (spec: Invoice), with its payments, reminders and reduced
// customer and contact, wrapped in {"invoice": …}, and their schemas. The event history: invoice-event.serializer.ts.
import { type ContactReference, ContactReferenceSchema, serializeContactReference } from '../contacts/contact.serializer.js';
import {
  type CustomerReference,
  CustomerReferenceSchema,
  type SerializeContext,
  serializeCustomerReference,
} from '../customers/customer.serializer.js';
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import { Decimal, formatDecimal } from '../common/money.js';
import { PageMetaSchema } from '../openapi/pagination.schema.js';
import {
  booleanProperty,
  dateProperty,
  dateTimeProperty,
  decimalProperty,
  enumProperty,
  externalIdProperty,
  idProperty,
  integerProperty,
  serviceUrlProperty,
  textProperty,
} from '../openapi/properties.js';
import { arrayOf, component, type Wire, wrapped } from '../openapi/schema.js';
import { INVOICE_SHIPPING_MODES, type Invoice, type InvoiceShippingMode } from './invoice.entity.js';
import { INVOICE_STATUSES } from './invoice-status.js';
import { charges } from './ledger/money.js';
import type { InterestState } from './interest/interest-lines.repository.js';
import type { Payment } from './payment.entity.js';
import type { Reminder } from './reminder.entity.js';

export const PaymentSchema = component('Payment', {
  id: idProperty('pay', 'Service id of the payment'),
  external_id: externalIdProperty(),
  amount: decimalProperty({ example: '59.5' }),
  payment_date: dateProperty(),
  note: textProperty({ nullable: true }),
  source: textProperty({ example: 'API', description: 'Where the payment was recorded' }),
  inkasso_payment: enumProperty(['true', 'false'], { description: 'A boolean as a string, as in the spec’s sample' }),
  created_at: dateTimeProperty(),
  updated_at: dateTimeProperty(),
});

export const ReminderLineSchema = component(
  'ReminderLine',
  {
    kind: enumProperty(['fee', 'default_interest', 'flat_fee'], {
      description:
        'fee: the level’s reminder fee (always present); default_interest: BGB § 288 interest on the open principal; flat_fee: § 288 (5) BGB',
    }),
    amount: decimalProperty({ example: '2.5' }),
    from: dateProperty({ description: 'default_interest only: the first day of interest' }),
    until: dateProperty({ description: 'default_interest only: the last day of interest (the reminder date)' }),
    points_above_base_rate: decimalProperty({
      example: '9.0',
      description: 'default_interest only: points above the Bundesbank base rate (5 consumer, 9 business)',
    }),
  },
  { description: 'Extension: one charge of a reminder', optional: ['from', 'until', 'points_above_base_rate'] },
);

export const ReminderSchema = component('Reminder', {
  id: idProperty('rem', 'Service id of the reminder'),
  reminder_stage: integerProperty({ minimum: 1, maximum: 3, example: 1 }),
  reminder_date: dateProperty(),
  last_sent_at: dateTimeProperty({ nullable: true, description: 'null until the reminder was shipped' }),
  shipping_mode: enumProperty(INVOICE_SHIPPING_MODES, { nullable: true }),
  fees: decimalProperty({
    example: '5.0',
    description: 'The reminder fee (0 with ignore_reminder_fees, and once the § 288 (5) flat fee is charged: fees are credited against it)',
  }),
  default_interest: decimalProperty({
    example: '0.0',
    description: 'Extension: BGB § 288 default interest this reminder charges (policy default_interest)',
  }),
  flat_fee: decimalProperty({
    example: '0.0',
    description: 'Extension: the 40 EUR flat fee of § 288 (5) BGB this reminder charges (policy business_flat_fee)',
  }),
  lines: arrayOf(ReminderLineSchema, {
    description: 'Extension: the reminder’s charges as separate lines, as the reminder letter prints them',
  }),
});

export const DunningBlockSchema = component(
  'DunningBlock',
  {
    reason: textProperty({ example: 'Customer disputes the amount' }),
    until: dateProperty({ nullable: true, description: 'The block holds until this date inclusive; null: until lifted' }),
  },
  { description: 'While it holds, the daily dunning run raises no reminder for the invoice' },
);

export const InvoiceSchema = component('Invoice', {
  id: idProperty('inv', 'Service id of the invoice'),
  external_id: externalIdProperty(),
  invoice_status: enumProperty(INVOICE_STATUSES),
  invoice_number: textProperty({ nullable: true, example: 'RE-2026-0042' }),
  service_url: serviceUrlProperty('invoices', 'inv'),
  invoice_attachment: textProperty({ nullable: true, description: 'URL of the attachment PDF (GET …/attachment); null without one' }),
  pdf_active_content: booleanProperty({
    description:
      'Extension: the invoice PDF or its attachment carries active content (JavaScript, /Launch actions, embedded files), as found at upload. ' +
      'Documents are served in a CSP sandbox, as attachments unless ?inline=true; the shipping setting refuse_active_pdf refuses such uploads',
  }),
  additional_number: textProperty({ nullable: true, description: 'Any additional number, e.g. an order number' }),
  total: decimalProperty({
    description:
      'Gross value: original_total plus reminder_fees (plus the extensions default_interest and flat_fee, 0 unless the dunning policy charges them)',
  }),
  original_total: decimalProperty({ description: 'Gross value without reminder fees' }),
  reminder_fees: decimalProperty({ example: '0.0' }),
  default_interest: decimalProperty({
    example: '0.0',
    description: 'Extension: BGB § 288 default interest charged (by reminders, at the hand-over to debt collection, less corrections)',
  }),
  accrued_interest: decimalProperty({
    example: '0.0',
    description: 'Extension: default interest accrued up to today and not yet charged (policy default_interest), computed at read',
  }),
  default_since: dateProperty({
    nullable: true,
    description: 'Extension: the first day of default (BGB § 286, policy default_starts); null while not in default',
  }),
  flat_fee: decimalProperty({
    example: '0.0',
    description: 'Extension: the 40 EUR flat fee of § 288 (5) BGB (business customers, once per invoice)',
  }),
  waived_amount: decimalProperty({
    example: '0.0',
    description:
      'Extension: what was left open when the payments reached original_total and the policy waives it (waive_remainder, event rest_waived): by § 367 BGB a remainder of the principal as large as the unpaid fees, flat fee and interest',
  }),
  open_amount: decimalProperty({
    description:
      'Still to pay: total minus payments minus waived_amount; negative when overpaid (the surplus is a customer credit, never moved to another invoice by itself)',
  }),
  order_date: dateProperty({ nullable: true }),
  invoice_date: dateProperty({ nullable: true }),
  due_date: dateProperty({ nullable: true }),
  time_for_payment: integerProperty({ nullable: true, example: 14, description: 'Days from invoice_date to due_date' }),
  source: textProperty({ example: 'API', description: 'Origin of the record' }),
  shipping_mode: enumProperty(INVOICE_SHIPPING_MODES, { nullable: true, description: 'null: the customer’s shipping mode applies' }),
  written_off_at: dateTimeProperty({ nullable: true }),
  ignore_reminder_fees: booleanProperty(),
  dunning_block: wrapped(DunningBlockSchema, { nullable: true, description: 'null: not blocked' }),
  created_at: dateTimeProperty(),
  updated_at: dateTimeProperty(),
  customer: CustomerReferenceSchema,
  contact: wrapped(ContactReferenceSchema, { nullable: true }),
  payments: arrayOf(PaymentSchema),
  reminders: arrayOf(ReminderSchema),
});

export const InvoiceResponseSchema = component(
  'InvoiceResponse',
  { invoice: InvoiceSchema },
  { description: 'An invoice, wrapped in an object with the single key `invoice`' },
);

export const InvoiceListSchema = component('InvoiceList', { invoices: arrayOf(InvoiceSchema), meta: PageMetaSchema });

export interface InvoiceView {
  invoice: Invoice;
  customer: CustomerReference;
  contact: ContactReference | null;
  payments: Payment[];
  reminders: Reminder[];
  /** Absent for a new invoice (not in default). */
  interest?: InterestState;
}

export function serializePayment(payment: Payment, ctx: SerializeContext): Wire<typeof PaymentSchema> {
  return {
    id: toPublicId('pay', payment.id),
    external_id: payment.externalId,
    amount: formatDecimal(payment.amount),
    payment_date: payment.paymentDate,
    note: payment.note,
    source: payment.source,
    inkasso_payment: String(payment.inkassoPayment) as 'true' | 'false',
    created_at: formatDateTime(payment.createdAt, ctx.timeZone),
    updated_at: formatDateTime(payment.updatedAt, ctx.timeZone),
  };
}

/** The reminder's charges, one line each: its fee, and (extensions) BGB § 288 default interest and flat fee. */
export function reminderLines(reminder: Reminder): Wire<typeof ReminderLineSchema>[] {
  return [
    { kind: 'fee', amount: formatDecimal(reminder.fees) },
    // interest_until is written together with interest_from (dunning-run.repository.ts).
    ...(reminder.interestFrom
      ? [
          {
            kind: 'default_interest' as const,
            amount: formatDecimal(reminder.defaultInterest),
            from: reminder.interestFrom,
            until: reminder.interestUntil as string,
            points_above_base_rate: formatDecimal(reminder.interestPoints ?? '0'),
          },
        ]
      : []),
    ...(new Decimal(reminder.flatFee).greaterThan(0) ? [{ kind: 'flat_fee' as const, amount: formatDecimal(reminder.flatFee) }] : []),
  ];
}

export function serializeReminder(reminder: Reminder, ctx: SerializeContext): Wire<typeof ReminderSchema> {
  return {
    id: toPublicId('rem', reminder.id),
    reminder_stage: reminder.reminderStage,
    reminder_date: reminder.reminderDate,
    last_sent_at: formatDateTime(reminder.lastSentAt, ctx.timeZone),
    shipping_mode: reminder.shippingMode as InvoiceShippingMode | null,
    fees: formatDecimal(reminder.fees),
    default_interest: formatDecimal(reminder.defaultInterest),
    flat_fee: formatDecimal(reminder.flatFee),
    lines: reminderLines(reminder),
  };
}

export function serializeInvoice(
  { invoice, customer, contact, payments, reminders, interest }: InvoiceView,
  ctx: SerializeContext,
): Wire<typeof InvoiceSchema> {
  const id = toPublicId('inv', invoice.id);
  const url = `${ctx.publicUrl}/invoices/${id}`;
  const owedBeyond = charges(invoice);
  return {
    id,
    external_id: invoice.externalId,
    invoice_status: invoice.status,
    invoice_number: invoice.invoiceNumber,
    service_url: url,
    invoice_attachment: invoice.attachmentKey ? `${ctx.publicUrl}/api/v1/invoices/${id}/attachment` : null,
    pdf_active_content: invoice.pdfActiveContent || invoice.attachmentActiveContent,
    additional_number: invoice.additionalNumber,
    total: formatDecimal(owedBeyond.isZero() ? invoice.originalTotal : owedBeyond.plus(invoice.originalTotal)),
    original_total: formatDecimal(invoice.originalTotal),
    reminder_fees: formatDecimal(invoice.reminderFees),
    default_interest: formatDecimal(invoice.defaultInterest),
    accrued_interest: formatDecimal(interest?.accruedInterest ?? 0),
    default_since: interest?.defaultSince ?? null,
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
