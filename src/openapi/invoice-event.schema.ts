// Response schema of an invoice's history (serializeEvent in src/invoices/invoice.serializer.ts):
// every status change, payment and update with its time, actor and reason.
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { ActorType } from '../invoices/invoice-event.entity.js';
import { INVOICE_STATUSES } from '../invoices/invoice-status.js';
import { DateTimeProperty, EnumProperty, IntegerProperty, TextProperty } from './properties.js';

/** Every actor type (the compiler checks the list is complete) and what it means. */
const ACTOR_TYPES: Record<ActorType, string> = {
  api: 'a REST API token',
  run: 'the dunning run',
  push: 'an API key (push)',
  erp_pull: 'an ERP pull',
  user: 'a user of the web front end',
  system: 'the service itself',
};
const ACTOR_TEXT = Object.entries(ACTOR_TYPES).map(([type, meaning]) => `${type}: ${meaning}`).join('; ');

@ApiSchema({ name: 'InvoiceEventActor' })
export class InvoiceEventActorSchema {
  @EnumProperty(Object.keys(ACTOR_TYPES), { description: ACTOR_TEXT }) readonly type!: string;
  @TextProperty({ nullable: true, description: 'The acting credential (a bare uuid), null for the run and the system' })
  readonly id!: string | null;
}

@ApiSchema({ name: 'InvoiceEvent' })
export class InvoiceEventSchema {
  @IntegerProperty({ minimum: 1, example: 17, description: 'Ascending in the order the events happened' }) readonly id!: number;
  @TextProperty({ example: 'status_changed', description: 'created, updated, status_changed, payment_recorded, payment_deleted, rest_waived (details waived, waived_amount), waiver_revoked (details revoked, waived_amount), customer_credit (details credit), recovery_recorded (details amount, open_amount), reminder_issued, reminder_cancelled, …' })
  readonly kind!: string;
  @EnumProperty(INVOICE_STATUSES, { nullable: true }) readonly from_status!: string | null;
  @EnumProperty(INVOICE_STATUSES, { nullable: true }) readonly to_status!: string | null;
  @ApiProperty({ type: InvoiceEventActorSchema }) readonly actor!: InvoiceEventActorSchema;
  @TextProperty({ nullable: true }) readonly reason!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'Kind-specific details, e.g. the payment id and amount' })
  readonly details!: Record<string, unknown> | null;
  @DateTimeProperty() readonly created_at!: string;
}

@ApiSchema({ name: 'InvoiceEventList' })
export class InvoiceEventListSchema {
  @ApiProperty({ type: [InvoiceEventSchema] }) readonly events!: InvoiceEventSchema[];
}
