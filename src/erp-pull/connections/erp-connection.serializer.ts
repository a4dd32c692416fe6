// The wire JSON of an ERP connection. Secrets never appear: `secrets` says which are set. Certificates
// are described (subject, issuer, validity, fingerprint) rather than echoed.
import { formatDateTime } from '../../common/dates.js';
import { toPublicId } from '../../common/ids.js';
import { certificatesIn } from './connection-settings.js';
import { type ErpConnection, SECRET_NAMES } from './erp-connection.entity.js';
import { effectiveMapping } from '../mapping/erp-mapping.js';

function describeCertificates(pem: string | null) {
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

export function serializeErpConnection(connection: ErpConnection, timeZone: string) {
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
    secrets: Object.fromEntries(SECRET_NAMES.map((name) => [name, connection.secretNames.includes(name)])),
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
    watermarks: connection.watermarks,
    created_at: formatDateTime(connection.createdAt, timeZone),
    updated_at: formatDateTime(connection.updatedAt, timeZone),
  };
}
