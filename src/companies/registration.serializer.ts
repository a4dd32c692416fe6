// The wire JSON of a self-registration: the new company and its first credentials, whose secrets are
// shown only this once.
import { toPublicId } from '../common/ids.js';
import { formatDateTime } from '../common/dates.js';
import type { NewCompany } from './companies.service.js';
import { CompanySchema } from '../openapi/auth.schema.js';
import { dateTimeProperty } from '../openapi/properties.js';
import { component, type Wire } from '../openapi/schema.js';

export const RegisteredUserSchema = component('RegisteredUser', {
  email: { type: 'string', format: 'email', example: 'buchhaltung@muster.de' },
});

export const RegistrationSchema = component(
  'Registration',
  {
    company: CompanySchema,
    user: RegisteredUserSchema,
    api_token: { type: 'string', pattern: '^rt_[A-Za-z0-9_-]{43}$', description: 'For `Authorization: Token token=<api_token>`' },
    api_key: { type: 'string', pattern: '^rk_[A-Za-z0-9_-]{43}$', description: 'For `Authorization: ApiKey <api_key>` (push)' },
    api_key_expires_at: dateTimeProperty({ description: 'The API key expires 90 days after creation' }),
  },
  { description: 'The new company and its first credentials; the secrets are shown only in this answer' },
);

export function serializeRegistration(created: NewCompany): Wire<typeof RegistrationSchema> {
  return {
    company: { id: toPublicId('cmp', created.company.id), name: created.company.name },
    user: { email: created.email },
    api_token: created.apiToken,
    api_key: created.apiKey,
    api_key_expires_at: formatDateTime(created.apiKeyExpiresAt, created.company.timeZone),
  };
}
