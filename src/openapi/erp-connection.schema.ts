// Response schemas of the ERP pull (src/erp-pull/connections/erp-connection.serializer.ts, run/pull-run.serializer.ts,
// connection-probe.ts): connections (secrets only as set / not set), connection tests and pull runs.
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { AUTH_METHODS } from '../connectors/odata-client.factory.js';
import { TOKEN_ENDPOINT_AUTH_METHODS } from '../erp-pull/connections/erp-connection.entity.js';
import { PageMetaSchema } from './pagination.schema.js';
import { BooleanProperty, DateTimeProperty, EnumProperty, IdProperty, IntegerProperty, TextProperty } from './properties.js';

const FREE_OBJECT = { type: 'object', additionalProperties: true } as const;

@ApiSchema({ name: 'CertificateSummary', description: 'A certificate described, not echoed' })
export class CertificateSummarySchema {
  @TextProperty({ example: 'CN=RECEIVABLES_PULL' }) readonly subject!: string;
  @TextProperty({ example: 'CN=Company Root CA' }) readonly issuer!: string;
  @ApiProperty({ type: String, format: 'date-time' }) readonly valid_from!: string;
  @ApiProperty({ type: String, format: 'date-time' }) readonly valid_to!: string;
  @TextProperty({ example: 'AB:CD:…' }) readonly fingerprint_sha256!: string;
}

@ApiSchema({ name: 'ErpSecretsSet', description: 'Which secrets are stored (encrypted); their values are never answered' })
export class ErpSecretsSetSchema {
  @BooleanProperty() readonly client_secret!: boolean;
  @BooleanProperty() readonly password!: boolean;
  @BooleanProperty() readonly private_key!: boolean;
  @BooleanProperty() readonly private_key_passphrase!: boolean;
}

@ApiSchema({ name: 'ErpServicePaths' })
export class ErpServicePathsSchema {
  @TextProperty({ example: '/sap/opu/odata/sap/API_BUSINESS_PARTNER/' }) readonly customers!: string;
  @TextProperty({ example: '/sap/opu/odata/sap/API_OPLACCTGDOCITEMCUBE_SRV/' }) readonly receivables!: string;
}

@ApiSchema({ name: 'ErpConnection' })
export class ErpConnectionSchema {
  @IdProperty('erp', 'Service id of the ERP connection') readonly id!: string;
  @TextProperty({ example: 'S/4HANA Cloud' }) readonly name!: string;
  @ApiProperty({ type: String, format: 'uri', example: 'https://my123456-api.s4hana.cloud.sap' }) readonly base_url!: string;
  @EnumProperty(['v2', 'v4']) readonly odata_version!: string;
  @EnumProperty(AUTH_METHODS) readonly auth_method!: string;
  @TextProperty({ nullable: true }) readonly token_url!: string | null;
  @TextProperty({ nullable: true }) readonly client_id!: string | null;
  @EnumProperty(TOKEN_ENDPOINT_AUTH_METHODS, { description: 'How the client authenticates at the token endpoint: form fields or HTTP Basic, never both (RFC 6749 §2.3.1)' })
  readonly token_endpoint_auth_method!: string;
  @TextProperty({ nullable: true }) readonly oauth_scope!: string | null;
  @TextProperty({ nullable: true }) readonly username!: string | null;
  @ApiProperty({ type: CertificateSummarySchema, nullable: true }) readonly client_certificate!: CertificateSummarySchema | null;
  @ApiProperty({ type: [CertificateSummarySchema], description: 'Trusted in addition to the public roots' }) readonly ca_certificates!: CertificateSummarySchema[];
  @ApiProperty({ type: ErpSecretsSetSchema }) readonly secrets!: ErpSecretsSetSchema;
  @TextProperty({ nullable: true, example: '100' }) readonly sap_client!: string | null;
  @TextProperty({ nullable: true, example: '0 */2 * * *', description: 'Five-field cron in schedule_time_zone; null: pulls only on request' }) readonly schedule!: string | null;
  @TextProperty({ example: 'Europe/Berlin' }) readonly schedule_time_zone!: string;
  @BooleanProperty() readonly enabled!: boolean;
  @DateTimeProperty({ nullable: true }) readonly next_pull_at!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: ['customers', 'receivables'] } }) readonly entities!: string[];
  @ApiProperty({ type: ErpServicePathsSchema }) readonly service_paths!: ErpServicePathsSchema;
  @ApiProperty({ ...FREE_OBJECT, description: 'The effective mapping: SAP defaults with the connection’s overrides' }) readonly mapping!: object;
  @TextProperty({ example: 'EUR' }) readonly currency!: string;
  @IntegerProperty({ minimum: 1, maximum: 5000 }) readonly page_size!: number;
  @ApiProperty({ ...FREE_OBJECT, description: 'Last committed change dates (YYYY-MM-DD) of customers, receivables, clearings, and the date of the last full reconciliation (reconciled)' }) readonly watermarks!: object;
  @DateTimeProperty() readonly created_at!: string;
  @DateTimeProperty() readonly updated_at!: string;
}

@ApiSchema({ name: 'ErpConnectionResponse', description: 'An ERP connection, wrapped in an object with the single key `erp_connection`' })
export class ErpConnectionResponseSchema {
  @ApiProperty({ type: ErpConnectionSchema }) readonly erp_connection!: ErpConnectionSchema;
}

@ApiSchema({ name: 'ErpConnectionList' })
export class ErpConnectionListSchema {
  @ApiProperty({ type: [ErpConnectionSchema] }) readonly erp_connections!: ErpConnectionSchema[];
  @ApiProperty({ type: PageMetaSchema }) readonly meta!: PageMetaSchema;
}

@ApiSchema({ name: 'ConnectionCheck' })
export class ConnectionCheckSchema {
  @TextProperty({ example: 'receivables', description: 'dns, address, token, customers, receivables' }) readonly check!: string;
  @BooleanProperty() readonly ok!: boolean;
  @TextProperty({ example: '403 Forbidden for …: the technical user lacks the authorization to read A_OperationalAcctgDocItemCube. The ERP says: …' })
  readonly detail!: string;
  @ApiProperty({ type: String, required: false, example: 'forbidden', description: 'dns, address_refused, tls, connect, timeout, network, unauthorized, forbidden, not_found, throttled, server, http, token, protocol' })
  readonly error_kind?: string;
}

@ApiSchema({ name: 'ConnectionTest', description: 'DNS, address (SSRF guard), token (OAuth), then each pulled service; it stops at DNS, address or token' })
export class ConnectionTestSchema {
  @BooleanProperty() readonly ok!: boolean;
  @TextProperty({ nullable: true, example: 'receivables', description: 'The first check that failed' }) readonly failed_check!: string | null;
  @ApiProperty({ type: [ConnectionCheckSchema] }) readonly checks!: ConnectionCheckSchema[];
}

@ApiSchema({ name: 'ConnectionTestResponse' })
export class ConnectionTestResponseSchema {
  @ApiProperty({ type: ConnectionTestSchema }) readonly connection_test!: ConnectionTestSchema;
}

@ApiSchema({ name: 'PullRun' })
export class PullRunSchema {
  @IdProperty('pul', 'Service id of the pull run; its requests carry X-Request-ID <id>-<sequence>') readonly id!: string;
  @IdProperty('erp', 'The connection') readonly connection_id!: string;
  @EnumProperty(['manual', 'schedule', 'resume']) readonly trigger!: string;
  @EnumProperty(['incremental', 'full']) readonly mode!: string;
  @EnumProperty(['queued', 'running', 'succeeded', 'failed']) readonly status!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The interrupted run this one resumed' }) readonly resumed_from!: string | null;
  @DateTimeProperty() readonly queued_at!: string;
  @DateTimeProperty({ nullable: true }) readonly started_at!: string | null;
  @DateTimeProperty({ nullable: true }) readonly finished_at!: string | null;
  @IntegerProperty({ minimum: 0 }) readonly pages!: number;
  @IntegerProperty({ minimum: 0, description: 'HTTP requests, retries included' }) readonly requests!: number;
  @IntegerProperty({ minimum: 0 }) readonly created!: number;
  @IntegerProperty({ minimum: 0 }) readonly updated!: number;
  @IntegerProperty({ minimum: 0 }) readonly unchanged!: number;
  @IntegerProperty({ minimum: 0 }) readonly failed!: number;
  @IntegerProperty({ minimum: 0, description: 'Not collected: credits, other currencies, items cleared before they were ever pulled open' }) readonly skipped!: number;
  @ApiProperty({ ...FREE_OBJECT, description: 'The counts per entity; clearings: payments recorded, invoices settled and reopened; reconciliation (a full run): invoices open here but no longer in the ERP’s open list, of them found cleared, and not found' }) readonly counts!: object;
  @ApiProperty({ ...FREE_OBJECT }) readonly watermark_from!: object;
  @ApiProperty({ ...FREE_OBJECT, nullable: true }) readonly watermark_to!: object | null;
  @TextProperty({ nullable: true, description: 'Why the run failed' }) readonly error!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'object', properties: { entity: { type: 'string' }, key: { type: 'string', nullable: true }, message: { type: 'string' } } }, description: 'The first 100 record errors and skip notes' })
  readonly errors!: object[];
}

@ApiSchema({ name: 'PullRunResponse' })
export class PullRunResponseSchema {
  @ApiProperty({ type: PullRunSchema }) readonly pull_run!: PullRunSchema;
}

@ApiSchema({ name: 'PullRunList', description: 'Newest first' })
export class PullRunListSchema {
  @ApiProperty({ type: [PullRunSchema] }) readonly pull_runs!: PullRunSchema[];
  @ApiProperty({ type: PageMetaSchema }) readonly meta!: PageMetaSchema;
}
