// Response schemas of invoices (src/invoices/invoice.serializer.ts): the invoice with payments, reminders
// and reduced customer and contact, wrapped in {"invoice": …}; the paginated list; the event history.
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { INVOICE_SHIPPING_MODES } from '../invoices/invoice.entity.js';
import { INVOICE_STATUSES } from '../invoices/invoice-status.js';
import { CustomerReferenceSchema } from './customer.schema.js';
import { PageMetaSchema } from './pagination.schema.js';
import {
  BooleanProperty,
  DateProperty,
  DateTimeProperty,
  DecimalProperty,
  EnumProperty,
  ExternalIdProperty,
  IdProperty,
  IntegerProperty,
  ServiceUrlProperty,
  TextProperty,
} from './properties.js';

@ApiSchema({ name: 'ContactReference', description: 'The invoice’s contact, reduced' })
export class ContactReferenceSchema {
  @IdProperty('con', 'Service id of the contact') readonly id!: string;
  @ExternalIdProperty() readonly external_id!: string | null;
  @TextProperty({ example: 'Erika Mustermann' }) readonly name!: string;
  @EnumProperty([0, 1, 2], { description: '0 = unknown, 1 = male, 2 = female' }) readonly gender!: 0 | 1 | 2;
  @EnumProperty([0, 1], { description: '0 = formal, 1 = informal' }) readonly salutation!: 0 | 1;
  @TextProperty({ nullable: true, example: 'erika@muster.de' }) readonly email!: string | null;
  @DateTimeProperty() readonly created_at!: string;
  @DateTimeProperty() readonly updated_at!: string;
}

@ApiSchema({ name: 'Payment' })
export class PaymentSchema {
  @IdProperty('pay', 'Service id of the payment') readonly id!: string;
  @ExternalIdProperty() readonly external_id!: string | null;
  @DecimalProperty({ example: '59.5' }) readonly amount!: string;
  @DateProperty() readonly payment_date!: string;
  @TextProperty({ nullable: true }) readonly note!: string | null;
  @TextProperty({ example: 'API', description: 'Where the payment was recorded' }) readonly source!: string;
  @EnumProperty(['true', 'false'], { description: 'A boolean as a string, as in the spec’s sample' }) readonly inkasso_payment!: string;
  @DateTimeProperty() readonly created_at!: string;
  @DateTimeProperty() readonly updated_at!: string;
}

@ApiSchema({ name: 'ReminderLine', description: 'Extension: one charge of a reminder' })
export class ReminderLineSchema {
  @EnumProperty(['fee', 'default_interest', 'flat_fee'], { description: 'fee: the level’s reminder fee (always present); default_interest: BGB § 288 interest on the open principal; flat_fee: § 288 (5) BGB' })
  readonly kind!: string;
  @DecimalProperty({ example: '2.5' }) readonly amount!: string;
  @DateProperty({ required: false, description: 'default_interest only: the first day of interest' }) readonly from?: string;
  @DateProperty({ required: false, description: 'default_interest only: the last day of interest (the reminder date)' }) readonly until?: string;
  @DecimalProperty({ required: false, example: '9.0', description: 'default_interest only: points above the Bundesbank base rate (5 consumer, 9 business)' })
  readonly points_above_base_rate?: string;
}

@ApiSchema({ name: 'Reminder' })
export class ReminderSchema {
  @IdProperty('rem', 'Service id of the reminder') readonly id!: string;
  @IntegerProperty({ minimum: 1, maximum: 3, example: 1 }) readonly reminder_stage!: number;
  @DateProperty() readonly reminder_date!: string;
  @DateTimeProperty({ nullable: true, description: 'null until the reminder was shipped' }) readonly last_sent_at!: string | null;
  @EnumProperty(INVOICE_SHIPPING_MODES, { nullable: true }) readonly shipping_mode!: string | null;
  @DecimalProperty({ example: '5.0', description: 'The reminder fee (0 with ignore_reminder_fees, and once the § 288 (5) flat fee is charged: fees are credited against it)' }) readonly fees!: string;
  @DecimalProperty({ example: '0.0', description: 'Extension: BGB § 288 default interest this reminder charges (policy default_interest)' }) readonly default_interest!: string;
  @DecimalProperty({ example: '0.0', description: 'Extension: the 40 EUR flat fee of § 288 (5) BGB this reminder charges (policy business_flat_fee)' }) readonly flat_fee!: string;
  @ApiProperty({ type: [ReminderLineSchema], description: 'Extension: the reminder’s charges as separate lines, as the reminder letter prints them' }) readonly lines!: ReminderLineSchema[];
}

@ApiSchema({ name: 'DunningBlock', description: 'While it holds, the daily dunning run raises no reminder for the invoice' })
export class DunningBlockSchema {
  @TextProperty({ example: 'Customer disputes the amount' }) readonly reason!: string;
  @DateProperty({ nullable: true, description: 'The block holds until this date inclusive; null: until lifted' }) readonly until!: string | null;
}

@ApiSchema({ name: 'Invoice' })
export class InvoiceSchema {
  @IdProperty('inv', 'Service id of the invoice') readonly id!: string;
  @ExternalIdProperty() readonly external_id!: string | null;
  @EnumProperty(INVOICE_STATUSES) readonly invoice_status!: string;
  @TextProperty({ nullable: true, example: 'RE-2026-0042' }) readonly invoice_number!: string | null;
  @ServiceUrlProperty('invoices', 'inv') readonly service_url!: string;
  @TextProperty({ nullable: true, description: 'URL of the attachment PDF (GET …/attachment); null without one' })
  readonly invoice_attachment!: string | null;
  @TextProperty({ nullable: true, description: 'Any additional number, e.g. an order number' }) readonly additional_number!: string | null;
  @DecimalProperty({ description: 'Gross value: original_total plus reminder_fees (plus the extensions default_interest and flat_fee, 0 unless the dunning policy charges them)' })
  readonly total!: string;
  @DecimalProperty({ description: 'Gross value without reminder fees' }) readonly original_total!: string;
  @DecimalProperty({ example: '0.0' }) readonly reminder_fees!: string;
  @DecimalProperty({ example: '0.0', description: 'Extension: BGB § 288 default interest charged with reminders' }) readonly default_interest!: string;
  @DecimalProperty({ example: '0.0', description: 'Extension: the 40 EUR flat fee of § 288 (5) BGB (business customers, once per invoice)' }) readonly flat_fee!: string;
  @DecimalProperty({ example: '0.0', description: 'Extension: fees or interest left when the payments reached original_total and the policy waives such rests (event rest_waived)' })
  readonly waived_amount!: string;
  @DecimalProperty({ description: 'Still to pay: total minus payments minus waived_amount; negative when overpaid (the surplus is a customer credit, never moved to another invoice by itself)' })
  readonly open_amount!: string;
  @DateProperty({ nullable: true }) readonly order_date!: string | null;
  @DateProperty({ nullable: true }) readonly invoice_date!: string | null;
  @DateProperty({ nullable: true }) readonly due_date!: string | null;
  @IntegerProperty({ nullable: true, example: 14, description: 'Days from invoice_date to due_date' }) readonly time_for_payment!: number | null;
  @TextProperty({ example: 'API', description: 'Origin of the record' }) readonly source!: string;
  @EnumProperty(INVOICE_SHIPPING_MODES, { nullable: true, description: 'null: the customer’s shipping mode applies' })
  readonly shipping_mode!: string | null;
  @DateTimeProperty({ nullable: true }) readonly written_off_at!: string | null;
  @BooleanProperty() readonly ignore_reminder_fees!: boolean;
  @ApiProperty({ type: DunningBlockSchema, nullable: true, description: 'null: not blocked' }) readonly dunning_block!: DunningBlockSchema | null;
  @DateTimeProperty() readonly created_at!: string;
  @DateTimeProperty() readonly updated_at!: string;
  @ApiProperty({ type: CustomerReferenceSchema }) readonly customer!: CustomerReferenceSchema;
  @ApiProperty({ type: ContactReferenceSchema, nullable: true }) readonly contact!: ContactReferenceSchema | null;
  @ApiProperty({ type: [PaymentSchema] }) readonly payments!: PaymentSchema[];
  @ApiProperty({ type: [ReminderSchema] }) readonly reminders!: ReminderSchema[];
}

@ApiSchema({ name: 'InvoiceResponse', description: 'An invoice, wrapped in an object with the single key `invoice`' })
export class InvoiceResponseSchema {
  @ApiProperty({ type: InvoiceSchema }) readonly invoice!: InvoiceSchema;
}

@ApiSchema({ name: 'InvoiceList' })
export class InvoiceListSchema {
  @ApiProperty({ type: [InvoiceSchema] }) readonly invoices!: InvoiceSchema[];
  @ApiProperty({ type: PageMetaSchema }) readonly meta!: PageMetaSchema;
}
