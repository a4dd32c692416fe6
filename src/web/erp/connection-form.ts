// The connection form ↔ the API's request body. The form posts the API's field names; what the form
// cannot say as the API does is translated here: an empty secret keeps the stored one (the API would
// remove it), the mapping overrides are JSON text, empty optional paths and numbers are left out.
import type { AuthMethod } from '../../connectors/odata-client.factory.js';
import { AUTH_METHODS } from '../../connectors/odata-client.factory.js';
import type { ErpConnection } from '../../erp-pull/connections/erp-connection.entity.js';
import { SECRET_NAMES } from '../../erp-pull/connections/erp-connection.entity.js';
import type { FieldErrors } from '../dunning/dunning-pages.js';
import { list, text } from '../dunning/dunning-pages.js';

/** The form's values as text, by field name; `entities` as the ticked ones. */
export interface FormValues {
  fields: Record<string, string>;
  entities: string[];
}

/** The text fields each auth method shows besides the common ones. */
export const METHOD_FIELDS: Record<AuthMethod, string[]> = {
  oauth_client_credentials: ['token_url', 'client_id', 'client_secret', 'token_endpoint_auth_method', 'oauth_scope'],
  basic: ['username', 'password'],
  x509: ['client_certificate', 'private_key', 'private_key_passphrase'],
};

export function authMethodOf(value: unknown, fallback: AuthMethod = 'oauth_client_credentials'): AuthMethod {
  return AUTH_METHODS.find((method) => method === value) ?? fallback;
}

const SECRETS: readonly string[] = SECRET_NAMES;

/** The request body for the API's DTO, or the field errors the form itself finds (the mapping's JSON). */
export function bodyOf(form: Record<string, unknown>): { body: Record<string, unknown>; errors: FieldErrors; values: FormValues } {
  const values = valuesOfForm(form);
  const body: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const [name, value] of Object.entries(values.fields)) {
    if (name.startsWith('service_paths[') || name === 'mapping' || name === 'page_size') continue;
    // An empty secret field keeps the stored secret: it is never shown, so it cannot be edited.
    if (SECRETS.includes(name) && value === '') continue;
    body[name] = value;
  }
  body.entities = values.entities;
  const paths: Record<string, string> = {};
  for (const entity of ['customers', 'receivables']) {
    const path = values.fields[`service_paths[${entity}]`]?.trim();
    if (path) paths[entity] = path;
  }
  if (Object.keys(paths).length) body.service_paths = paths;
  const pageSize = values.fields.page_size?.trim();
  if (pageSize !== undefined) body.page_size = pageSize === '' ? null : pageSize;
  const mapping = values.fields.mapping?.trim();
  if (mapping !== undefined) {
    try {
      const parsed: unknown = mapping === '' ? null : JSON.parse(mapping);
      if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) throw new Error('not an object');
      body.mapping = parsed;
    } catch {
      errors.mapping = 'badJson';
    }
  }
  return { body, errors, values };
}

/** What a submitted form showed, to show it again beside its errors (secrets never). */
export function valuesOfForm(form: Record<string, unknown>): FormValues {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(form)) {
    if (name === '_csrf' || name === 'entities') continue;
    if (name === 'service_paths' && value && typeof value === 'object') {
      for (const [entity, path] of Object.entries(value)) fields[`service_paths[${entity}]`] = text(path);
    } else if (typeof value === 'string') fields[name] = value;
  }
  return { fields, entities: list(form.entities) };
}

/** The form's values of a stored connection: its settings, the mapping overrides as JSON, no secret. */
export function valuesOfConnection(connection: ErpConnection): FormValues {
  const optional = (value: string | null) => value ?? '';
  const hasMapping = Object.keys(connection.mapping ?? {}).length > 0;
  return {
    fields: {
      name: connection.name,
      base_url: connection.baseUrl,
      odata_version: connection.odataVersion,
      auth_method: connection.authMethod,
      token_url: optional(connection.tokenUrl),
      client_id: optional(connection.clientId),
      token_endpoint_auth_method: connection.tokenEndpointAuthMethod,
      oauth_scope: optional(connection.oauthScope),
      username: optional(connection.username),
      client_certificate: optional(connection.clientCertificate),
      ca_certificates: optional(connection.caCertificates),
      sap_client: optional(connection.sapClient),
      schedule: optional(connection.schedule),
      enabled: String(connection.enabled),
      fetch_invoice_pdfs: String(connection.fetchInvoicePdfs),
      currency: connection.currency,
      page_size: String(connection.pageSize),
      'service_paths[customers]': connection.servicePaths.customers,
      'service_paths[receivables]': connection.servicePaths.receivables,
      mapping: hasMapping ? JSON.stringify(connection.mapping, null, 2) : '',
    },
    entities: [...connection.entities],
  };
}

/** A new connection's form: the API's defaults. */
export function defaultValues(method: AuthMethod): FormValues {
  return {
    fields: {
      auth_method: method,
      odata_version: 'v2',
      token_endpoint_auth_method: 'client_secret_post',
      enabled: 'true',
      currency: 'EUR',
    },
    entities: ['customers', 'receivables'],
  };
}
