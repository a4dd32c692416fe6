// Builds the ODataClient of a connection: its secrets opened from the SecretBox, the operator's
// transport settings (SSRF, timeouts, retries) from the configuration.
import { Inject, Injectable } from '@nestjs/common';
import { SecretBox, SecretBoxError } from '../../config/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import type { ExchangeEvent } from '../../connectors/https-exchange.js';
import type { ODataClient } from '../../connectors/odata-client.js';
import { createODataClient } from '../../connectors/odata-client.factory.js';
import type { ErpConnection, Secrets } from './erp-connection.entity.js';

export interface ClientContext {
  /** X-Request-ID prefix: the pull run's public id (or a test's). */
  requestIdPrefix: string;
  signal?: AbortSignal;
  onExchange?: (event: ExchangeEvent) => void;
  /** Overrides the configured retries (the connection test answers at once). */
  retries?: number;
}

@Injectable()
export class ErpClients {
  constructor(
    private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Throws SecretBoxError (saying to enter the secrets again) when SECRETS_KEY has changed since they were stored. */
  secretsOf(connection: Pick<ErpConnection, 'companyId' | 'id' | 'secrets'>): Secrets {
    if (!connection.secrets) return {};
    try {
      return JSON.parse(this.box.open(connection.secrets, this.associatedData(connection))) as Secrets;
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw new SecretBoxError(`The stored secrets of this connection do not open (${error.message}): enter them again with PATCH`);
    }
  }

  seal(connection: Pick<ErpConnection, 'companyId' | 'id'>, secrets: Secrets): Buffer | null {
    return Object.keys(secrets).length ? this.box.seal(JSON.stringify(secrets), this.associatedData(connection)) : null;
  }

  create(connection: ErpConnection, context: ClientContext): ODataClient {
    const erp = this.config.erp;
    const secrets = this.secretsOf(connection);
    return createODataClient(
      {
        baseUrl: connection.baseUrl,
        version: connection.odataVersion,
        sapClient: connection.sapClient,
        caCertificates: connection.caCertificates,
        allowPrivateNetworks: erp.allowPrivateNetworks,
        timeouts: { connectMs: erp.connectTimeoutMs, headersMs: erp.headersTimeoutMs, bodyMs: erp.bodyTimeoutMs, totalMs: erp.requestTimeoutMs },
        retry: { retries: context.retries ?? erp.retries, baseDelayMs: erp.retryBaseDelayMs, maxRetryAfterMs: erp.maxRetryAfterMs },
        requestIdPrefix: context.requestIdPrefix,
        signal: context.signal,
        onExchange: context.onExchange,
      },
      {
        method: connection.authMethod,
        tokenUrl: connection.tokenUrl,
        clientId: connection.clientId,
        clientSecret: secrets.client_secret,
        scope: connection.oauthScope,
        tokenEndpointAuthMethod: connection.tokenEndpointAuthMethod,
        username: connection.username,
        password: secrets.password,
        clientCertificate: connection.clientCertificate,
        privateKey: secrets.private_key,
        privateKeyPassphrase: secrets.private_key_passphrase,
      },
    );
  }

  /** A sealed secret opens only for the connection it was sealed for. */
  private associatedData(connection: Pick<ErpConnection, 'companyId' | 'id'>): string {
    return `erp_connections/${connection.companyId}/${connection.id}`;
  }
}
