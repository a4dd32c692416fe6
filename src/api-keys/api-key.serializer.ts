// The wire JSON of an API key. The secret appears only in the answer that created it.
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import type { ApiKeyStatus } from './api-key-state.js';
import type { ApiKeyRecord } from './api-keys.repository.js';

export function serializeApiKey(key: ApiKeyRecord, status: ApiKeyStatus, timeZone: string) {
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
