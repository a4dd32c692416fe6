// POST …/test: checks a connection step by step and says precisely what failed — the host name (DNS),
// the address (SSRF guard), the token endpoint, then each service the pull reads (TLS, 401, 403 with
// what the ERP says is missing, 404 service path).
import { Inject, Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { ConnectorError, type ConnectorErrorKind } from '../connectors/connector-error.js';
import { assertAllowedHost } from '../connectors/network-guard.js';
import { OAuthClientCredentialsClient } from '../connectors/oauth-client-credentials.client.js';
import { newUuid } from '../common/ids.js';
import { SecretBoxError } from '../common/secret-box.js';
import { ErpClients } from './erp-clients.js';
import type { ErpConnection } from './erp-connection.entity.js';
import { effectiveMapping } from './erp-mapping.js';

export interface ProbeCheck {
  check: string;
  ok: boolean;
  /** What was found, or what failed and what to look at. */
  detail: string;
  error_kind?: ConnectorErrorKind;
}

export interface ProbeResult {
  ok: boolean;
  failed_check: string | null;
  checks: ProbeCheck[];
}

@Injectable()
export class ConnectionProbe {
  constructor(
    private readonly clients: ErpClients,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(connection: ErpConnection): Promise<ProbeResult> {
    const checks: ProbeCheck[] = [];
    const result = () => {
      const failed = checks.find((c) => !c.ok);
      return { ok: !failed, failed_check: failed?.check ?? null, checks };
    };
    const host = new URL(connection.baseUrl).hostname;
    const bare = host.replace(/^\[|\]$/g, '');
    try {
      const addresses = await lookup(bare, { all: true });
      checks.push({ check: 'dns', ok: true, detail: `${bare} resolves to ${addresses.map((a) => a.address).join(', ')}` });
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      checks.push({ check: 'dns', ok: false, detail: `DNS: ${bare} does not resolve (${code}); check the host name of base_url`, error_kind: 'dns' });
      return result();
    }
    try {
      await assertAllowedHost(bare, this.config.erp.allowPrivateNetworks);
      checks.push({ check: 'address', ok: true, detail: 'a public address' });
    } catch (error) {
      checks.push({ check: 'address', ok: false, detail: (error as Error).message, error_kind: 'address_refused' });
      return result();
    }
    let client;
    try {
      client = this.clients.create(connection, { requestIdPrefix: `test-${newUuid()}`, retries: 0 });
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      checks.push({ check: 'secrets', ok: false, detail: error.message });
      return result();
    }
    try {
      if (client instanceof OAuthClientCredentialsClient) {
        const ok = await this.step(checks, 'token', async () => {
          await client.accessToken();
          return `the token endpoint issued an access token to client ${connection.clientId}`;
        });
        if (!ok) return result();
      }
      const mapping = effectiveMapping(connection.mapping);
      for (const entity of connection.entities) {
        const { entity_set: entitySet, key } = mapping[entity];
        const path = `${connection.servicePaths[entity].replace(/\/+$/, '')}/${entitySet}`;
        await this.step(checks, entity, async () => {
          const page = await client.getPage(path, { select: key, top: 1, count: true });
          const count = page.count === undefined ? '' : ` (${page.count} records)`;
          return `${path} answers${count}`;
        });
      }
    } finally {
      await client.close();
    }
    return result();
  }

  private async step(checks: ProbeCheck[], check: string, work: () => Promise<string>): Promise<boolean> {
    try {
      checks.push({ check, ok: true, detail: await work() });
      return true;
    } catch (error) {
      if (!(error instanceof ConnectorError)) throw error;
      checks.push({ check, ok: false, detail: error.message, error_kind: error.kind });
      return false;
    }
  }
}
