// Response schemas of customers (src/customers/customer.serializer.ts): the customer with its contact
// summaries, the reduced customer inside contacts and invoices, and the paginated list.
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CUSTOMER_SHIPPING_MODES, CUSTOMER_TYPES } from '../customers/customer.entity.js';
import { PageMetaSchema } from './pagination.schema.js';
import {
  BooleanProperty,
  DateTimeProperty,
  EnumProperty,
  ExternalIdProperty,
  IdProperty,
  ServiceUrlProperty,
  TextProperty,
} from './properties.js';

const ADDRESS = 'Muster GmbH\nz. Hd. Erika Mustermann\nMusterstraße 1\n10115 Berlin\nDE';
const ADDRESS_TEXT = 'address_line1, address_line2, address_line3, address_line4, "<zip> <city>" and country_code, a line each (empty parts skipped)';

@ApiSchema({ name: 'ContactSummary', description: 'A contact as listed inside its customer' })
export class ContactSummarySchema {
  @IdProperty('con', 'Service id of the contact') readonly id!: string;
  @ExternalIdProperty() readonly external_id!: string | null;
  @TextProperty({ example: 'Erika Mustermann' }) readonly name!: string;
  @TextProperty({ nullable: true, example: '+49 30 1234567' }) readonly phone!: string | null;
  @EnumProperty([0, 1, 2], { description: '0 = unknown, 1 = male, 2 = female' }) readonly gender!: 0 | 1 | 2;
  @EnumProperty([0, 1], { description: '0 = formal, 1 = informal' }) readonly salutation!: 0 | 1;
  @TextProperty({ nullable: true, example: 'erika@muster.de' }) readonly email!: string | null;
  @DateTimeProperty() readonly created_at!: string;
  @DateTimeProperty() readonly updated_at!: string;
}

@ApiSchema({ name: 'Customer' })
export class CustomerSchema {
  @IdProperty('cus', 'Service id of the customer') readonly id!: string;
  @ExternalIdProperty() readonly external_id!: string | null;
  @TextProperty({ nullable: true, example: 'K-10001' }) readonly customer_number!: string | null;
  @TextProperty({ nullable: true }) readonly additional_number!: string | null;
  @ServiceUrlProperty('customers', 'cus') readonly service_url!: string;
  @TextProperty({ example: 'Muster GmbH' }) readonly name!: string;
  @TextProperty({ nullable: true, example: '+49 30 1234567' }) readonly phone!: string | null;
  @TextProperty({ example: ADDRESS, description: `The full address: ${ADDRESS_TEXT}` }) readonly address!: string;
  @BooleanProperty({ description: 'true: no automatic reminders' }) readonly stop_automatic_reminders!: boolean;
  @EnumProperty(CUSTOMER_SHIPPING_MODES, { nullable: true, description: 'null: the company’s setting applies' })
  readonly shipping_mode!: string | null;
  @TextProperty({ nullable: true }) readonly customer_group_id!: string | null;
  @TextProperty({ nullable: true }) readonly note!: string | null;
  @EnumProperty(CUSTOMER_TYPES, { description: 'Extension of the spec: decides default interest and the flat fee (BGB § 288)' })
  readonly customer_type!: string;
  @DateTimeProperty() readonly created_at!: string;
  @DateTimeProperty() readonly updated_at!: string;
  @ApiProperty({ type: [ContactSummarySchema], description: 'All contacts of the customer; empty for a new customer' })
  readonly contacts!: ContactSummarySchema[];
}

@ApiSchema({ name: 'CustomerReference', description: 'The owning customer, reduced, inside a contact or an invoice' })
export class CustomerReferenceSchema {
  @IdProperty('cus', 'Service id of the customer') readonly id!: string;
  @ExternalIdProperty() readonly external_id!: string | null;
  @TextProperty({ example: 'Muster GmbH' }) readonly name!: string;
  @TextProperty({ nullable: true, example: 'K-10001' }) readonly customer_number!: string | null;
  @TextProperty({ example: ADDRESS, description: `The full address: ${ADDRESS_TEXT}` }) readonly address!: string;
  @DateTimeProperty() readonly created_at!: string;
  @DateTimeProperty() readonly updated_at!: string;
}

@ApiSchema({ name: 'CustomerList' })
export class CustomerListSchema {
  @ApiProperty({ type: [CustomerSchema] }) readonly customers!: CustomerSchema[];
  @ApiProperty({ type: PageMetaSchema }) readonly meta!: PageMetaSchema;
}
