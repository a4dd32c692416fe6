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

@ApiSchema({ name: 'Reminder' })
export class ReminderSchema {
  @IdProperty('rem', 'Service id of the reminder') readonly id!: string;
  @IntegerProperty({ minimum: 1, maximum: 3, example: 1 }) readonly reminder_stage!: number;
  @DateProperty() readonly reminder_date!: string;
  @DateTimeProperty({ nullable: true, description: 'null until the reminder was shipped' }) readonly last_sent_at!: string | null;
  @EnumProperty(INVOICE_SHIPPING_MODES, { nullable: true }) readonly shipping_mode!: string | null;
  @DecimalProperty({ example: '5.0' }) readonly fees!: string;
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
  @DecimalProperty({ description: 'Gross value: original_total plus reminder_fees' }) readonly total!: string;
  @DecimalProperty({ description: 'Gross value without reminder fees' }) readonly original_total!: string;
  @DecimalProperty({ example: '0.0' }) readonly reminder_fees!: string;
  @DecimalProperty({ description: 'Still to pay; negative when overpaid' }) readonly open_amount!: string;
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
