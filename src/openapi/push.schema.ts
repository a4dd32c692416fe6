// Response schemas of the push integration (src/push/documents/push-document.serializer.ts): pushed documents,
// dead letters and the audit log.
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DOCUMENT_TYPES } from '../push/dto/push-document.dto.js';
import { AUDIT_STEPS, DOCUMENT_STATUSES } from '../push/push-document.js';
import { PageMetaSchema } from './pagination.schema.js';
import { DateTimeProperty, IdProperty, IntegerProperty, TextProperty } from './properties.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

@ApiSchema({ name: 'PushDocumentResult', description: 'The record the document produced' })
export class PushDocumentResultSchema {
  @ApiProperty({ enum: ['invoice', 'payment', 'credit', 'customer'], description: '`credit`: a credit memo, booked as a credit entry (`pay-…`) on its invoice' })
  readonly type!: string;
  @ApiProperty({ type: String, pattern: `^(inv|pay|cus)-${UUID}$`, example: 'inv-3f2b8c1e-6a4d-4e0b-9c57-2d8e1f0a7b64' }) readonly id!: string;
}

@ApiSchema({ name: 'PushDocument', description: 'A pushed document and where it is in processing' })
export class PushDocumentSchema {
  @IdProperty('doc', 'Service id of the document') readonly id!: string;
  @ApiProperty({ enum: DOCUMENT_TYPES }) readonly document_type!: string;
  @TextProperty({ example: 'RE-2026-0042', description: 'The client’s id of the document (case-insensitive)' }) readonly external_id!: string;
  @IntegerProperty({ minimum: 1, example: 1, description: '1, 2, … per (document_type, external_id): changed documents are applied in this order' })
  readonly version!: number;
  @ApiProperty({ enum: DOCUMENT_STATUSES, description: '`failed`: an attempt failed and a retry is scheduled' }) readonly status!: string;
  @IntegerProperty({ minimum: 0, example: 1, description: 'Processing attempts so far' }) readonly attempts!: number;
  @TextProperty({ nullable: true, example: 'invoice.not_found: No invoice with external_id "RE-1" (yet): push the invoice first', description: 'The error of the last failed attempt' })
  readonly last_error!: string | null;
  @ApiProperty({
    enum: ['applied', 'unchanged', 'superseded'],
    nullable: true,
    description: '`unchanged`: the record was in that state already; `superseded`: a later version had been applied',
  })
  readonly outcome!: string | null;
  @ApiProperty({ type: PushDocumentResultSchema, nullable: true }) readonly result!: PushDocumentResultSchema | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The document as received (normalized); a PDF is shown as `{"bytes": <size>}`' })
  readonly payload!: Record<string, unknown>;
  @TextProperty({ nullable: true, description: 'Why the dead letter was discarded' }) readonly discard_reason!: string | null;
  @DateTimeProperty() readonly received_at!: string;
  @DateTimeProperty({ nullable: true }) readonly processed_at!: string | null;
  @DateTimeProperty({ nullable: true }) readonly dead_lettered_at!: string | null;
  @DateTimeProperty() readonly updated_at!: string;
}

@ApiSchema({ name: 'PushDocumentResponse' })
export class PushDocumentResponseSchema {
  @ApiProperty({ type: PushDocumentSchema }) readonly document!: PushDocumentSchema;
}

@ApiSchema({ name: 'PushDocumentList' })
export class PushDocumentListSchema {
  @ApiProperty({ type: [PushDocumentSchema] }) readonly documents!: PushDocumentSchema[];
  @ApiProperty({ type: PageMetaSchema }) readonly meta!: PageMetaSchema;
}

@ApiSchema({ name: 'DeadLetterList', description: 'Documents whose every attempt failed (status dead_lettered), oldest first' })
export class DeadLetterListSchema {
  @ApiProperty({ type: [PushDocumentSchema] }) readonly dead_letters!: PushDocumentSchema[];
  @ApiProperty({ type: PageMetaSchema }) readonly meta!: PageMetaSchema;
}

@ApiSchema({ name: 'AuditCredential', description: 'Who caused the step: the credential of the push, or of the replay or discard' })
export class AuditCredentialSchema {
  @ApiProperty({ enum: ['apikey', 'bearer', 'token'] }) readonly type!: string;
  @ApiProperty({ type: String, nullable: true, pattern: `^(key|oat|tok)-${UUID}$`, description: '`key-…` API key, `oat-…` OAuth access token, `tok-…` REST API token' })
  readonly id!: string | null;
}

@ApiSchema({ name: 'AuditEntry', description: 'One step of one pushed document; the log is append-only' })
export class AuditEntrySchema {
  @ApiProperty({ type: String, pattern: '^\\d+$', example: '4711', description: 'Increasing in the order the steps happened' }) readonly id!: string;
  @IdProperty('doc', 'The document') readonly document_id!: string;
  @ApiProperty({ enum: DOCUMENT_TYPES }) readonly document_type!: string;
  @TextProperty({ example: 'RE-2026-0042' }) readonly external_id!: string;
  @ApiProperty({ enum: AUDIT_STEPS }) readonly step!: string;
  @IntegerProperty({ minimum: 1, nullable: true, description: 'The attempt the step belongs to' }) readonly attempt!: number | null;
  @TextProperty({ nullable: true, description: 'The error of a failed attempt' }) readonly error!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'e.g. `{"outcome": "applied", …}`, `{"reason": …}`, `{"notes": […]}`' })
  readonly details!: Record<string, unknown> | null;
  @ApiProperty({ type: AuditCredentialSchema, nullable: true }) readonly credential!: AuditCredentialSchema | null;
  @TextProperty({ nullable: true, description: 'The X-Request-ID of the request that caused the step' }) readonly request_id!: string | null;
  @DateTimeProperty() readonly created_at!: string;
}

@ApiSchema({ name: 'AuditLog' })
export class AuditLogSchema {
  @ApiProperty({ type: [AuditEntrySchema] }) readonly audit_log!: AuditEntrySchema[];
  @ApiProperty({ type: PageMetaSchema }) readonly meta!: PageMetaSchema;
}
