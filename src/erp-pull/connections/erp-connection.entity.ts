import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AuthMethod } from '../../connectors/odata-client.factory.js';
import type { ODataVersion } from '../../connectors/odata-wire.js';
import type { MappingOverrides, PullEntity, ServicePaths } from '../mapping/erp-mapping.js';

/** The last committed change date (YYYY-MM-DD) of each stream a pull reads, and of the last full reconciliation. */
export interface Watermarks {
  customers?: string;
  receivables?: string;
  clearings?: string;
  reconciled?: string;
}

export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_post', 'client_secret_basic'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

export const SECRET_NAMES = ['client_secret', 'password', 'private_key', 'private_key_passphrase'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
export type Secrets = Partial<Record<SecretName, string>>;

@Entity('erp_connections')
export class ErpConnection {
  @PrimaryColumn('uuid', { name: 'company_id' }) companyId!: string;
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text', { name: 'base_url' }) baseUrl!: string;
  @Column('text', { name: 'odata_version' }) odataVersion!: ODataVersion;
  @Column('text', { name: 'auth_method' }) authMethod!: AuthMethod;
  @Column('text', { name: 'token_url', nullable: true }) tokenUrl!: string | null;
  @Column('text', { name: 'client_id', nullable: true }) clientId!: string | null;
  /** How the client authenticates at the token endpoint (RFC 6749 §2.3.1): form fields or HTTP Basic, never both. */
  @Column('text', { name: 'token_endpoint_auth_method' }) tokenEndpointAuthMethod!: TokenEndpointAuthMethod;
  @Column('text', { name: 'oauth_scope', nullable: true }) oauthScope!: string | null;
  @Column('text', { nullable: true }) username!: string | null;
  @Column('text', { name: 'client_certificate', nullable: true }) clientCertificate!: string | null;
  @Column('text', { name: 'ca_certificates', nullable: true }) caCertificates!: string | null;
  /** Sealed JSON of Secrets (SecretBox); never leaves the service. */
  @Column('bytea', { nullable: true }) secrets!: Buffer | null;
  @Column('text', { name: 'secret_names', array: true }) secretNames!: SecretName[];
  @Column('text', { name: 'sap_client', nullable: true }) sapClient!: string | null;
  @Column('text', { nullable: true }) schedule!: string | null;
  @Column('boolean') enabled!: boolean;
  @Column('text', { array: true }) entities!: PullEntity[];
  @Column('jsonb', { name: 'service_paths' }) servicePaths!: ServicePaths;
  @Column('jsonb') mapping!: MappingOverrides;
  @Column('char', { length: 3 }) currency!: string;
  @Column('integer', { name: 'page_size' }) pageSize!: number;
  /** Fetch the billing document's PDF of a pulled invoice (erp-invoice-pdfs.ts); off unless the company turns it on. */
  @Column('boolean', { name: 'fetch_invoice_pdfs' }) fetchInvoicePdfs!: boolean;
  @Column('jsonb') watermarks!: Watermarks;
  /** Raised whenever the watermarks are reset: a run that started before cannot store its own over the reset. */
  @Column('integer', { name: 'watermark_generation' }) watermarkGeneration!: number;
  @Column('timestamptz', { name: 'next_pull_at', nullable: true }) nextPullAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}
