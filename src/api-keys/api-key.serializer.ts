// The wire JSON of an API key, with its schemas. The secret appears only in the answer that created it.
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import { PageMetaSchema } from '../openapi/pagination.schema.js';
import { dateTimeProperty, enumProperty, idProperty, textProperty } from '../openapi/properties.js';
import { arrayOf, component, type Wire } from '../openapi/schema.js';
import type { ApiKeyStatus } from './api-key-state.js';
import type { ApiKeyRecord } from './api-keys.repository.js';

const STATUSES = ['active', 'expiring', 'rotated', 'expired', 'revoked'] as const satisfies readonly ApiKeyStatus[];

const API_KEY_PROPERTIES = {
  id: idProperty('key', 'Service id of the API key'),
  name: textProperty({ example: 'ERP push' }),
  prefix: textProperty({ description: 'The first characters of the key, to recognise it' }),
  status: enumProperty(STATUSES, {
    description: 'expiring: within API_KEY_EXPIRY_WARNING_DAYS of expires_at; rotated: replaced, in its grace period',
  }),
  created_at: dateTimeProperty(),
  expires_at: dateTimeProperty(),
  revoked_at: dateTimeProperty({ nullable: true }),
  replaced_by: { ...idProperty('key', 'The key that replaced this one by a rotation'), nullable: true },
  replaced_at: dateTimeProperty({ nullable: true }),
} as const;

export const ApiKeySchema = component('ApiKey', API_KEY_PROPERTIES, { description: 'An API key for /v2 (push); never with its secret' });

export const NewApiKeySchema = component(
  'NewApiKey',
  { ...API_KEY_PROPERTIES, key: textProperty({ description: 'The secret: shown in this answer only' }) },
  { description: 'An API key just created or rotated, with its secret' },
);

export const ApiKeyResponseSchema = component('ApiKeyResponse', { api_key: ApiKeySchema });
export const NewApiKeyResponseSchema = component('NewApiKeyResponse', { api_key: NewApiKeySchema });
export const RotatedApiKeyResponseSchema = component('RotatedApiKeyResponse', {
  api_key: NewApiKeySchema,
  previous_api_key: ApiKeySchema,
});
export const ApiKeyListSchema = component('ApiKeyList', { api_keys: arrayOf(ApiKeySchema), meta: PageMetaSchema });

export function serializeApiKey(key: ApiKeyRecord, status: ApiKeyStatus, timeZone: string): Wire<typeof ApiKeySchema> {
  return {
    id: toPublicId('key', key.id),
    name: key.name,
    prefix: key.keyPrefix,
    status,
    created_at: formatDateTime(key.createdAt, timeZone),
    expires_at: formatDateTime(key.expiresAt, timeZone),
    revoked_at: formatDateTime(key.revokedAt, timeZone),
    replaced_by: key.replacedBy ? toPublicId('key', key.replacedBy) : null,
    replaced_at: formatDateTime(key.replacedAt, timeZone),
  };
}
