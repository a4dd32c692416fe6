// The wire JSON of an invoice's history (GET /api/v1/invoices/<id>/events) and its schema: every
// status change, payment and update with its time, actor and reason.
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import type { SerializeContext } from '../customers/customer.serializer.js';
import { dateTimeProperty, enumProperty, freeObjectProperty, integerProperty, textProperty } from '../openapi/properties.js';
import { arrayOf, component, type Wire } from '../openapi/schema.js';
import type { ActorType, InvoiceEvent } from './invoice-event.entity.js';
import { INVOICE_STATUSES, type InvoiceStatus } from './invoice-status.js';

/** Every actor type (the compiler checks the list is complete) and what it means. */
const ACTOR_TYPES: Record<ActorType, string> = {
  api: 'a REST API token',
  run: 'the dunning run',
  push: 'an API key (push)',
  erp_pull: 'an ERP pull',
  user: 'a user of the web front end',
  system: 'the service itself',
};
const ACTOR_TEXT = Object.entries(ACTOR_TYPES)
  .map(([type, meaning]) => `${type}: ${meaning}`)
  .join('; ');

export const InvoiceEventActorSchema = component('InvoiceEventActor', {
  type: enumProperty(Object.keys(ACTOR_TYPES) as ActorType[], { description: ACTOR_TEXT }),
  id: textProperty({ nullable: true, description: 'The acting credential (a bare uuid), null for the run and the system' }),
});

export const InvoiceEventDocumentSchema = component('InvoiceEventDocument', {
  kind: enumProperty(['statement_of_claim'] as const, {
    description: 'statement_of_claim: the Forderungsaufstellung (PDF) of the debt-collection hand-over',
  }),
  url: textProperty({ example: 'https://receivables.example.com/api/v1/invoices/inv-…/statement_of_claim' }),
});

/** The status of the hand-over to debt collection: its event lists the statement of claim. */
const HANDED_OVER: InvoiceStatus = 'sent_to_dept_collection';

export const InvoiceEventSchema = component('InvoiceEvent', {
  id: integerProperty({ minimum: 1, example: 17, description: 'Ascending in the order the events happened' }),
  kind: textProperty({
    example: 'status_changed',
    description:
      'created, updated, status_changed, payment_recorded, payment_deleted, rest_waived (details waived, waived_amount), waiver_revoked (details revoked, waived_amount), ' +
      'customer_credit (details credit), recovery_recorded (details amount, open_amount), reminder_issued, reminder_cancelled, …',
  }),
  from_status: enumProperty(INVOICE_STATUSES, { nullable: true }),
  to_status: enumProperty(INVOICE_STATUSES, { nullable: true }),
  actor: InvoiceEventActorSchema,
  reason: textProperty({ nullable: true }),
  details: freeObjectProperty({ nullable: true, description: 'Kind-specific details, e.g. the payment id and amount' }),
  documents: arrayOf(InvoiceEventDocumentSchema, {
    description: 'Extension: documents that belong to the event (the hand-over to debt collection lists its statement of claim)',
  }),
  created_at: dateTimeProperty(),
});

export const InvoiceEventListSchema = component('InvoiceEventList', { events: arrayOf(InvoiceEventSchema) });

export function serializeEvent(event: InvoiceEvent, ctx: SerializeContext): Wire<typeof InvoiceEventSchema> {
  return {
    id: Number(event.id),
    kind: event.kind,
    from_status: event.fromStatus as InvoiceStatus | null,
    to_status: event.toStatus as InvoiceStatus | null,
    actor: { type: event.actorType, id: event.actorId },
    reason: event.reason,
    details: event.details,
    documents:
      event.toStatus === HANDED_OVER
        ? [{ kind: 'statement_of_claim', url: `${ctx.publicUrl}/api/v1/invoices/${toPublicId('inv', event.invoiceId)}/statement_of_claim` }]
        : [],
    created_at: formatDateTime(event.createdAt, ctx.timeZone),
  };
}
