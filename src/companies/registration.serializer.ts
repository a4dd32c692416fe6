import { toPublicId } from '../common/ids.js';
import { formatDateTime } from '../common/dates.js';
import type { NewCompany } from './companies.service.js';

export function serializeRegistration(created: NewCompany) {
  return {
    company: { id: toPublicId('cmp', created.company.id), name: created.company.name },
    user: { email: created.email },
    api_token: created.apiToken,
    api_key: created.apiKey,
    api_key_expires_at: formatDateTime(created.apiKeyExpiresAt, created.company.timeZone),
  };
}
