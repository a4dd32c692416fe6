// The checks a connection's settings must pass before they are stored: URLs (https, not into the
// service's own networks), what the auth method needs, certificates and keys that really parse and
// belong together, a valid schedule. All problems at once, as field errors.
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { FieldError } from '../../common/errors.js';
import type { AuthMethod } from '../../connectors/odata-client.factory.js';
import { assertAllowedHost } from '../../connectors/network-guard.js';
import type { Secrets } from './erp-connection.entity.js';
import { cronProblem } from '../run/pull-schedule.js';

export interface SettingsToCheck {
  baseUrl: string;
  authMethod: AuthMethod;
  tokenUrl: string | null;
  clientId: string | null;
  username: string | null;
  clientCertificate: string | null;
  caCertificates: string | null;
  schedule: string | null;
  secrets: Secrets;
}

/** The secrets each auth method uses; others are dropped when the method changes. */
export const SECRETS_OF: Record<AuthMethod, Array<keyof Secrets>> = {
  oauth_client_credentials: ['client_secret'],
  basic: ['password'],
  x509: ['private_key', 'private_key_passphrase'],
};

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function certificatesIn(bundle: string): X509Certificate[] {
  return (bundle.match(PEM_CERTIFICATE) ?? []).map((pem) => new X509Certificate(pem));
}

function httpsUrl(field: string, value: string, errors: FieldError[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    errors.push({ field, message: `${field} must be an absolute https:// URL` });
    return undefined;
  }
  if (url.protocol !== 'https:') errors.push({ field, message: `${field} must use https:// (credentials never travel unencrypted)` });
  else if (url.username || url.password) errors.push({ field, message: `${field} must not contain a user or password` });
  else if (url.hash) errors.push({ field, message: `${field} must not contain a fragment` });
  else return url;
  return undefined;
}

async function allowedHost(field: string, url: URL | undefined, allowPrivate: boolean, errors: FieldError[]): Promise<void> {
  if (!url) return;
  try {
    await assertAllowedHost(url.hostname, allowPrivate);
  } catch (error) {
    errors.push({ field, message: (error as Error).message });
  }
}

function checkCertificateAndKey(settings: SettingsToCheck, errors: FieldError[]): void {
  let certificate: X509Certificate | undefined;
  let key: KeyObject | undefined;
  if (settings.clientCertificate) {
    try {
      certificate = certificatesIn(settings.clientCertificate)[0];
      if (!certificate) errors.push({ field: 'client_certificate', message: 'client_certificate must be a PEM certificate (-----BEGIN CERTIFICATE-----)' });
    } catch {
      errors.push({ field: 'client_certificate', message: 'client_certificate is not a readable X.509 certificate' });
    }
  }
  const { private_key: pem, private_key_passphrase: passphrase } = settings.secrets;
  const encrypted = pem !== undefined && /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(pem);
  if (encrypted && !passphrase) {
    errors.push({ field: 'private_key_passphrase', message: 'private_key is encrypted: private_key_passphrase is needed' });
  } else if (pem) {
    try {
      key = createPrivateKey({ key: pem, format: 'pem', passphrase });
    } catch {
      const message = encrypted ? 'private_key does not open with private_key_passphrase' : 'private_key is not a readable PEM private key';
      errors.push({ field: 'private_key', message });
    }
  }
  if (certificate && key && !certificate.checkPrivateKey(key)) {
    errors.push({ field: 'private_key', message: 'private_key does not belong to client_certificate' });
  }
}

export async function settingsProblems(settings: SettingsToCheck, allowPrivate: boolean): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const base = httpsUrl('base_url', settings.baseUrl, errors);
  if (base?.search) errors.push({ field: 'base_url', message: 'base_url must not contain a query (sap_client has a field of its own)' });
  const token = settings.tokenUrl ? httpsUrl('token_url', settings.tokenUrl, errors) : undefined;
  await allowedHost('base_url', base, allowPrivate, errors);
  await allowedHost('token_url', token, allowPrivate, errors);
  const need = (field: string, present: unknown) => {
    if (!present) errors.push({ field, message: `${field} is required for auth_method ${settings.authMethod}` });
  };
  switch (settings.authMethod) {
    case 'oauth_client_credentials':
      need('token_url', settings.tokenUrl);
      need('client_id', settings.clientId);
      need('client_secret', settings.secrets.client_secret);
      break;
    case 'basic':
      need('username', settings.username);
      need('password', settings.secrets.password);
      break;
    case 'x509':
      need('client_certificate', settings.clientCertificate);
      need('private_key', settings.secrets.private_key);
      break;
  }
  checkCertificateAndKey(settings, errors);
  if (settings.caCertificates) {
    try {
      if (certificatesIn(settings.caCertificates).length === 0) errors.push({ field: 'ca_certificates', message: 'ca_certificates must hold PEM certificates' });
    } catch {
      errors.push({ field: 'ca_certificates', message: 'ca_certificates holds a certificate that cannot be read' });
    }
  }
  const cron = settings.schedule ? cronProblem(settings.schedule) : undefined;
  if (cron) errors.push({ field: 'schedule', message: `schedule ${cron}` });
  return errors;
}
