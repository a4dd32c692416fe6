// The wire JSON of an OAuth application, with its schemas; the client secret only in the answer that created it.
import { formatDateTime } from '../common/dates.js';
import { toPublicId } from '../common/ids.js';
import { PageMetaSchema } from '../openapi/pagination.schema.js';
import { dateTimeProperty, idProperty, textProperty } from '../openapi/properties.js';
import { arrayOf, component, type Wire } from '../openapi/schema.js';
import type { OAuthApplication } from './oauth-applications.repository.js';

const APPLICATION_PROPERTIES = {
  id: idProperty('app', 'Service id of the application'),
  name: textProperty({ example: 'Middleware' }),
  client_id: textProperty({ description: 'The OAuth client_id' }),
  redirect_uris: arrayOf(textProperty({ example: 'https://middleware.example.com/oauth/callback' })),
  authorization_url: { type: 'string', format: 'uri', description: '<PUBLIC_URL>/oauth/authorize' },
  token_url: { type: 'string', format: 'uri', description: '<PUBLIC_URL>/oauth/token' },
  created_at: dateTimeProperty(),
  revoked_at: dateTimeProperty({ nullable: true }),
} as const;

export const OAuthApplicationSchema = component('OAuthApplication', APPLICATION_PROPERTIES, {
  description: 'An OAuth 2.0 client of the company; never with its secret',
});

export const NewOAuthApplicationSchema = component(
  'NewOAuthApplication',
  { ...APPLICATION_PROPERTIES, client_secret: textProperty({ description: 'Shown in this answer only' }) },
  { description: 'An OAuth application just registered, with its client secret' },
);

export const OAuthApplicationResponseSchema = component('OAuthApplicationResponse', { oauth_application: OAuthApplicationSchema });
export const NewOAuthApplicationResponseSchema = component('NewOAuthApplicationResponse', {
  oauth_application: NewOAuthApplicationSchema,
});
export const OAuthApplicationListSchema = component('OAuthApplicationList', {
  oauth_applications: arrayOf(OAuthApplicationSchema),
  meta: PageMetaSchema,
});

export function serializeOAuthApplication(app: OAuthApplication, timeZone: string, publicUrl: string): Wire<typeof OAuthApplicationSchema> {
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
