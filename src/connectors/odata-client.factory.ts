// Picks the ODataClient implementation for a connection's auth method.
import { BasicAuthClient } from './basic-auth.client.js';
import { ClientCertificateClient } from './client-certificate.client.js';
import { ConnectorError } from './connector-error.js';
import { type ClientAuthMethod, OAuthClientCredentialsClient } from './oauth-client-credentials.client.js';
import type { ODataClient, ODataClientOptions } from './odata-client.js';

export const AUTH_METHODS = ['oauth_client_credentials', 'basic', 'x509'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** What each auth method needs; the secret parts come decrypted from the connection. */
export interface ConnectorCredentials {
  method: AuthMethod;
  tokenUrl?: string | null;
  clientId?: string | null;
  clientSecret?: string | null;
  scope?: string | null;
  tokenEndpointAuthMethod?: ClientAuthMethod;
  username?: string | null;
  password?: string | null;
  clientCertificate?: string | null;
  privateKey?: string | null;
  privateKeyPassphrase?: string | null;
}

function need(value: string | null | undefined, what: string): string {
  if (!value) throw new ConnectorError('protocol', `The connection lacks ${what}`);
  return value;
}

export function createODataClient(options: ODataClientOptions, credentials: ConnectorCredentials): ODataClient {
  switch (credentials.method) {
    case 'oauth_client_credentials':
      return new OAuthClientCredentialsClient(options, {
        tokenUrl: need(credentials.tokenUrl, 'token_url'),
        clientId: need(credentials.clientId, 'client_id'),
        clientSecret: need(credentials.clientSecret, 'client_secret'),
        scope: credentials.scope,
        authMethod: credentials.tokenEndpointAuthMethod,
      });
    case 'basic':
      return new BasicAuthClient(options, need(credentials.username, 'username'), need(credentials.password, 'password'));
    case 'x509':
      return new ClientCertificateClient(options, {
        cert: need(credentials.clientCertificate, 'client_certificate'),
        key: need(credentials.privateKey, 'private_key'),
        passphrase: credentials.privateKeyPassphrase ?? undefined,
      });
  }
}
