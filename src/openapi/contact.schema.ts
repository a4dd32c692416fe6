// Response schemas of contacts (src/contacts/contact.serializer.ts): the contact with its generated
// salutation_text and reduced customer, always wrapped in {"contact": …}.
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CustomerReferenceSchema } from './customer.schema.js';
import { DateTimeProperty, EnumProperty, ExternalIdProperty, IdProperty, TextProperty } from './properties.js';

const SALUTATION_TEXT =
  'Generated: formal male "Sehr geehrter Herr <name>", formal female "Sehr geehrte Frau <name>", ' +
  'formal with unknown gender or no name "Sehr geehrte Damen und Herren", informal "Hallo <name>"';

@ApiSchema({ name: 'Contact' })
export class ContactSchema {
  @IdProperty('con', 'Service id of the contact') readonly id!: string;
  @ExternalIdProperty() readonly external_id!: string | null;
  @TextProperty({ example: 'Erika Mustermann' }) readonly name!: string;
  @TextProperty({ nullable: true, example: '+49 30 1234567' }) readonly phone!: string | null;
  @EnumProperty([0, 1, 2], { description: '0 = unknown, 1 = male, 2 = female' }) readonly gender!: 0 | 1 | 2;
  @EnumProperty([0, 1], { description: '0 = formal, 1 = informal' }) readonly salutation!: 0 | 1;
  @TextProperty({ example: 'Sehr geehrte Frau Erika Mustermann', description: SALUTATION_TEXT }) readonly salutation_text!: string;
  @TextProperty({ nullable: true, example: 'erika@muster.de' }) readonly email!: string | null;
  @DateTimeProperty() readonly created_at!: string;
  @DateTimeProperty() readonly updated_at!: string;
  @ApiProperty({ type: CustomerReferenceSchema }) readonly customer!: CustomerReferenceSchema;
}

@ApiSchema({ name: 'ContactResponse', description: 'A contact, wrapped in an object with the single key `contact`' })
export class ContactResponseSchema {
  @ApiProperty({ type: ContactSchema }) readonly contact!: ContactSchema;
}
