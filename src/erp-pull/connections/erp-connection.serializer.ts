// The wire JSON of an ERP connection, and the schemas of connections and connection tests (the
// probe's result, connection-probe.ts). Secrets never appear: `secrets` says which are set.
// Certificates are described (subject, issuer, validity, fingerprint) rather than echoed.
import { formatDateTime } from '../../common/dates.js';
import { toPublicId } from '../../common/ids.js';
import { AUTH_METHODS } from '../../connectors/odata-client.factory.js';
import { PageMetaSchema } from '../../openapi/pagination.schema.js';
import {
  booleanProperty,
  dateTimeProperty,
  enumProperty,
  freeObjectProperty,
  idProperty,
  integerProperty,
  textProperty,
} from '../../openapi/properties.js';
import { arrayOf, component, type Wire, wrapped } from '../../openapi/schema.js';
import { certificatesIn } from './connection-settings.js';
import { type ErpConnection, SECRET_NAMES, type SecretName, TOKEN_ENDPOINT_AUTH_METHODS } from './erp-connection.entity.js';
import { effectiveMapping } from '../mapping/erp-mapping.js';

export const CertificateSummarySchema = component(
  'CertificateSummary',
  {
    subject: textProperty({ example: 'CN=RECEIVABLES_PULL' }),
    issuer: textProperty({ example: 'CN=Company Root CA' }),
    valid_from: { type: 'string', format: 'date-time' },
    valid_to: { type: 'string', format: 'date-time' },
    fingerprint_sha256: textProperty({ example: 'AB:CD:…' }),
  },
  { description: 'A certificate described, not echoed' },
);

export const ErpSecretsSetSchema = component(
  'ErpSecretsSet',
  {
    client_secret: booleanProperty(),
    password: booleanProperty(),
    private_key: booleanProperty(),
    private_key_passphrase: booleanProperty(),
  },
  { description: 'Which secrets are stored (encrypted); their values are never answered' },
);

export const ErpServicePathsSchema = component('ErpServicePaths', {
  customers: textProperty({ example: '/sap/opu/odata/sap/API_BUSINESS_PARTNER/' }),
  receivables: textProperty({ example: '/sap/opu/odata/sap/API_OPLACCTGDOCITEMCUBE_SRV/' }),
});

export const ErpConnectionSchema = component('ErpConnection', {
  id: idProperty('erp', 'Service id of the ERP connection'),
  name: textProperty({ example: 'S/4HANA Cloud' }),
  base_url: { type: 'string', format: 'uri', example: 'https://my123456-api.s4hana.cloud.sap' },
  odata_version: enumProperty(['v2', 'v4']),
  auth_method: enumProperty(AUTH_METHODS),
  token_url: textProperty({ nullable: true }),
  client_id: textProperty({ nullable: true }),
  token_endpoint_auth_method: enumProperty(TOKEN_ENDPOINT_AUTH_METHODS, {
    description: 'How the client authenticates at the token endpoint: form fields or HTTP Basic, never both (RFC 6749 §2.3.1)',
  }),
  oauth_scope: textProperty({ nullable: true }),
  username: textProperty({ nullable: true }),
  client_certificate: wrapped(CertificateSummarySchema, { nullable: true }),
  ca_certificates: arrayOf(CertificateSummarySchema, { description: 'Trusted in addition to the public roots' }),
  secrets: ErpSecretsSetSchema,
  sap_client: textProperty({ nullable: true, example: '100' }),
  schedule: textProperty({
    nullable: true,
    example: '0 */2 * * *',
    description: 'Five-field cron in schedule_time_zone; null: pulls only on request',
  }),
  schedule_time_zone: textProperty({ example: 'Europe/Berlin' }),
  enabled: booleanProperty(),
  next_pull_at: dateTimeProperty({ nullable: true }),
  entities: arrayOf({ type: 'string', enum: ['customers', 'receivables'] }),
  service_paths: ErpServicePathsSchema,
  mapping: freeObjectProperty({ description: 'The effective mapping: SAP defaults with the connection’s overrides' }),
  currency: textProperty({ example: 'EUR' }),
  page_size: integerProperty({ minimum: 1, maximum: 5000 }),
  fetch_invoice_pdfs: booleanProperty({
    description:
      'After each pull, the PDF of each new invoice’s billing document (additional_number mapped to BillingDocument) is fetched from API_BILLING_DOCUMENT_SRV and kept as the invoice’s PDF',
  }),
  watermarks: freeObjectProperty({
    description:
      'Last committed change dates (YYYY-MM-DD) of customers, receivables, clearings, and the date of the last full reconciliation (reconciled)',
  }),
  created_at: dateTimeProperty(),
  updated_at: dateTimeProperty(),
});

export const ErpConnectionResponseSchema = component(
  'ErpConnectionResponse',
  { erp_connection: ErpConnectionSchema },
  { description: 'An ERP connection, wrapped in an object with the single key `erp_connection`' },
);

export const ErpConnectionListSchema = component('ErpConnectionList', {
  erp_connections: arrayOf(ErpConnectionSchema),
  meta: PageMetaSchema,
});

export const ConnectionCheckSchema = component(
  'ConnectionCheck',
  {
    check: textProperty({ example: 'receivables', description: 'dns, address, token, customers, receivables' }),
    ok: booleanProperty(),
    detail: textProperty({
      example: '403 Forbidden for …: the technical user lacks the authorization to read A_OperationalAcctgDocItemCube. The ERP says: …',
    }),
    error_kind: textProperty({
      example: 'forbidden',
      description:
        'dns, address_refused, tls, connect, timeout, network, unauthorized, forbidden, not_found, throttled, server, http, token, protocol',
    }),
  },
  { optional: ['error_kind'] },
);

export const ConnectionTestSchema = component(
  'ConnectionTest',
  {
    ok: booleanProperty(),
    failed_check: textProperty({ nullable: true, example: 'receivables', description: 'The first check that failed' }),
    checks: arrayOf(ConnectionCheckSchema),
  },
  { description: 'DNS, address (SSRF guard), token (OAuth), then each pulled service; it stops at DNS, address or token' },
);

export const ConnectionTestResponseSchema = component('ConnectionTestResponse', { connection_test: ConnectionTestSchema });

function describeCertificates(pem: string | null): Wire<typeof CertificateSummarySchema>[] {
  if (!pem) return [];
  try {
    return certificatesIn(pem).map((c) => ({
      subject: c.subject.replace(/\n/g, ', '),
      issuer: c.issuer.replace(/\n/g, ', '),
      valid_from: new Date(c.validFrom).toISOString(),
      valid_to: new Date(c.validTo).toISOString(),
      fingerprint_sha256: c.fingerprint256,
    }));
  } catch {
    return [];
  }
}

export function serializeErpConnection(connection: ErpConnection, timeZone: string): Wire<typeof ErpConnectionSchema> {
  return {
    id: toPublicId('erp', connection.id),
    name: connection.name,
    base_url: connection.baseUrl,
    odata_version: connection.odataVersion,
    auth_method: connection.authMethod,
    token_url: connection.tokenUrl,
    client_id: connection.clientId,
    token_endpoint_auth_method: connection.tokenEndpointAuthMethod,
    oauth_scope: connection.oauthScope,
    username: connection.username,
    client_certificate: describeCertificates(connection.clientCertificate)[0] ?? null,
    ca_certificates: describeCertificates(connection.caCertificates),
    secrets: Object.fromEntries(SECRET_NAMES.map((name) => [name, connection.secretNames.includes(name)])) as Record<SecretName, boolean>,
    sap_client: connection.sapClient,
    schedule: connection.schedule,
    schedule_time_zone: timeZone,
    enabled: connection.enabled,
    next_pull_at: formatDateTime(connection.nextPullAt, timeZone),
    entities: connection.entities,
    service_paths: connection.servicePaths,
    mapping: effectiveMapping(connection.mapping),
    currency: connection.currency,
    page_size: connection.pageSize,
    fetch_invoice_pdfs: connection.fetchInvoicePdfs,
    watermarks: connection.watermarks,
    created_at: formatDateTime(connection.createdAt, timeZone),
    updated_at: formatDateTime(connection.updatedAt, timeZone),
  };
}
