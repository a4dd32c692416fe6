// POST …/test: checks a connection step by step and says precisely what failed — the host name (DNS),
// the address (SSRF guard), the token endpoint, then each service the pull reads (TLS, 401, 403 with
// what the ERP says is missing, 404 service path).
import { Inject, Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import { ConnectorError, type ConnectorErrorKind } from '../../connectors/connector-error.js';
import { refusal, refusedRange } from '../../connectors/network-guard.js';
import { OAuthClientCredentialsClient } from '../../connectors/oauth-client-credentials.client.js';
import { newUuid } from '../../common/ids.js';
import { SecretBoxError } from '../../config/secret-box.js';
import { ErpClients } from './erp-clients.js';
import type { ErpConnection } from './erp-connection.entity.js';
import { effectiveMapping } from '../mapping/erp-mapping.js';

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
    let addresses: string[];
    try {
      addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((a) => a.address);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      checks.push({ check: 'dns', ok: false, detail: `DNS: ${bare} does not resolve (${code}); check the host name of base_url`, error_kind: 'dns' });
      return result();
    }
    // Addresses inside the service's own networks are never shown to the tenant: a probe must not map them.
    const ranges = addresses.map((address) => ({ address, why: refusedRange(address) }));
    const inside = ranges.filter((r) => r.why);
    checks.push({ check: 'dns', ok: true, detail: this.resolution(bare, ranges) });
    if (inside.length === 0) {
      checks.push({ check: 'address', ok: true, detail: ranges.length > 1 ? 'public addresses' : 'a public address' });
    } else if (this.config.erp.allowPrivateNetworks) {
      const what = isIP(bare) ? `${bare} is` : `${bare} resolves to`;
      checks.push({ check: 'address', ok: true, detail: `${what} ${inside[0].why}: allowed because ERP_ALLOW_PRIVATE_NETWORKS=true` });
    } else {
      checks.push({ check: 'address', ok: false, detail: refusal(host, isIP(bare) ? host : inside[0].address, inside[0].why!).message, error_kind: 'address_refused' });
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

  private resolution(host: string, ranges: Array<{ address: string; why: string | undefined }>): string {
    if (isIP(host)) return `${host} is an IP address`;
    const shown = ranges.filter((r) => !r.why).map((r) => r.address);
    const hidden = ranges.length - shown.length;
    const parts = [shown.length ? `to ${shown.join(', ')}` : '', hidden ? `to ${hidden} non-public address${hidden > 1 ? 'es' : ''} (not shown)` : ''];
    return `${host} resolves ${parts.filter(Boolean).join(' and ')}`;
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
