// The wire JSON of an OAuth application; the client secret only in the answer that created it.
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import type { OAuthApplication } from './oauth-applications.repository.js';

export function serializeOAuthApplication(app: OAuthApplication, timeZone: string, publicUrl: string) {
  return {
    id: toPublicId('app', app.id),
    name: app.name,
    client_id: app.clientId,
    redirect_uris: app.redirectUris,
    authorization_url: `${publicUrl}/oauth/authorize`,
    token_url: `${publicUrl}/oauth/token`,
    created_at: formatDateTime(app.createdAt, timeZone),
    revoked_at: formatDateTime(app.revokedAt, timeZone),
  };
}
