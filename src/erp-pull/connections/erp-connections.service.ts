// ERP connections of a company: created, changed and removed with their settings checked as a whole;
// secrets sealed at rest and only ever reported as set or not; the schedule's next run kept current.
import { Inject, Injectable } from '@nestjs/common';
import type { CompanyContext } from '../../auth/principal.js';
import { AppError, type FieldError, validationFailed } from '../../common/errors.js';
import { newUuid, parsePublicId } from '../../common/ids.js';
import { SecretBoxError } from '../../config/secret-box.js';
import { APP_CONFIG, type AppConfig } from '../../config/app.config.js';
import type { PageRequest } from '../../common/pagination.js';
import { ErpClients } from './erp-clients.js';
import { ConnectionProbe, type ProbeResult } from './connection-probe.js';
import { SECRETS_OF, settingsProblems } from './connection-settings.js';
import type { CreateErpConnectionDto, UpdateErpConnectionDto } from './dto/erp-connection.dto.js';
import { type ErpConnection, SECRET_NAMES, type SecretName, type Secrets } from './erp-connection.entity.js';
import { type ConnectionValues, ErpConnectionsRepository } from './erp-connections.repository.js';
import { type MappingOverrides, PULL_ENTITIES, SAP_SERVICE_PATHS } from '../mapping/erp-mapping.js';
import { nextPullAt } from '../run/pull-schedule.js';

type Settings = Omit<ConnectionValues, 'secrets' | 'secretNames' | 'watermarks' | 'watermarkGeneration' | 'nextPullAt'>;

const DEFAULTS: Omit<Settings, 'name' | 'baseUrl' | 'authMethod'> = {
  odataVersion: 'v2',
  tokenUrl: null,
  clientId: null,
  tokenEndpointAuthMethod: 'client_secret_post',
  oauthScope: null,
  username: null,
  clientCertificate: null,
  caCertificates: null,
  sapClient: null,
  schedule: null,
  enabled: true,
  entities: [...PULL_ENTITIES],
  servicePaths: SAP_SERVICE_PATHS,
  mapping: {},
  currency: 'EUR',
  pageSize: 5000,
  fetchInvoicePdfs: false,
};

/** Only what the request names: absent stays, null clears (or restores the default). */
function settingsFrom(dto: UpdateErpConnectionDto): Partial<Settings> {
  const pick = <K extends keyof UpdateErpConnectionDto>(key: K) => dto[key];
  const changes: Partial<Settings> = {};
  const set = <K extends keyof Settings>(key: K, value: Settings[K] | undefined) => {
    if (value !== undefined) changes[key] = value;
  };
  set('name', pick('name') ?? undefined);
  set('baseUrl', pick('base_url')?.replace(/\/+$/, ''));
  set('odataVersion', dto.odata_version === null ? DEFAULTS.odataVersion : (dto.odata_version ?? undefined));
  set('authMethod', pick('auth_method'));
  set('tokenUrl', pick('token_url'));
  set('clientId', pick('client_id'));
  set(
    'tokenEndpointAuthMethod',
    dto.token_endpoint_auth_method === null ? DEFAULTS.tokenEndpointAuthMethod : (dto.token_endpoint_auth_method ?? undefined),
  );
  set('oauthScope', pick('oauth_scope'));
  set('username', pick('username'));
  set('clientCertificate', pick('client_certificate'));
  set('caCertificates', pick('ca_certificates'));
  set('sapClient', pick('sap_client'));
  set('schedule', pick('schedule'));
  set('enabled', pick('enabled'));
  set('entities', pick('entities'));
  if (dto.service_paths) {
    const withSlash = (path: string | undefined) => path && `${path.replace(/\/+$/, '')}/`;
    changes.servicePaths = {
      customers: withSlash(dto.service_paths.customers) ?? SAP_SERVICE_PATHS.customers,
      receivables: withSlash(dto.service_paths.receivables) ?? SAP_SERVICE_PATHS.receivables,
    };
  }
  if (dto.mapping !== undefined) changes.mapping = JSON.parse(JSON.stringify(dto.mapping ?? {})) as MappingOverrides;
  set('currency', dto.currency === null ? DEFAULTS.currency : (dto.currency ?? undefined));
  set('pageSize', dto.page_size === null ? DEFAULTS.pageSize : (dto.page_size ?? undefined));
  set('fetchInvoicePdfs', pick('fetch_invoice_pdfs'));
  return changes;
}

const originOf = (url: string | null) => {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return url;
  }
};

/**
 * Stored secrets never go to another host than the one they were entered for: a PATCH that moves the
 * endpoint a secret (or the token it buys) is sent to must carry that secret again. Refused rather than
 * dropped, so a connection is never left saved without the credentials its method needs. The private
 * key of X.509 never leaves the service (the handshake only proves it is held), so it stays.
 */
function secretsToResend(before: ErpConnection, after: Settings, dto: UpdateErpConnectionDto): FieldError[] {
  // A new auth method keeps none of the old secrets: the settings check asks for the new ones.
  if (before.authMethod !== after.authMethod) return [];
  const moved = [
    originOf(before.baseUrl) !== originOf(after.baseUrl) && 'base_url',
    // The client secret goes to the token URL, the token it buys to the base URL.
    after.authMethod === 'oauth_client_credentials' && originOf(before.tokenUrl) !== originOf(after.tokenUrl) && 'token_url',
  ].filter((field): field is string => Boolean(field));
  const secret: SecretName | undefined = {
    basic: 'password' as const,
    oauth_client_credentials: 'client_secret' as const,
    x509: undefined,
  }[after.authMethod];
  if (!secret || moved.length === 0 || (typeof dto[secret] === 'string' && dto[secret] !== '')) return [];
  return [
    {
      field: secret,
      message: `${secret} must be given again when ${moved.join(' and ')} points to another host: stored secrets are never sent to a new host`,
    },
  ];
}

@Injectable()
export class ErpConnectionsService {
  constructor(
    private readonly connections: ErpConnectionsRepository,
    private readonly clients: ErpClients,
    private readonly probe: ConnectionProbe,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(company: CompanyContext, dto: CreateErpConnectionDto): Promise<ErpConnection> {
    const id = newUuid();
    const settings = { ...DEFAULTS, ...settingsFrom(dto) } as Settings;
    const secrets = this.applySecrets({}, dto, settings.authMethod);
    await this.check(settings, secrets);
    return this.connections.insert(company.id, id, {
      ...settings,
      ...this.sealed({ companyId: company.id, id }, secrets),
      watermarks: {},
      watermarkGeneration: 0,
      nextPullAt: this.nextRun(settings, company),
    });
  }

  async update(company: CompanyContext, publicId: string, dto: UpdateErpConnectionDto): Promise<ErpConnection> {
    const connection = await this.require(company, publicId);
    const changes = settingsFrom(dto);
    const settings: Settings = { ...connection, ...changes };
    const secrets = this.applySecrets(this.storedSecrets(connection), dto, settings.authMethod);
    const resend = secretsToResend(connection, settings, dto);
    if (resend.length) throw validationFailed(resend);
    await this.check(settings, secrets);
    const scheduleChanged = 'schedule' in changes || 'enabled' in changes;
    return this.connections.update(
      connection,
      { ...changes, ...this.sealed(connection, secrets), ...(scheduleChanged ? { nextPullAt: this.nextRun(settings, company) } : {}) },
      this.readsAnotherSource(connection, settings),
    );
  }

  async get(company: CompanyContext, publicId: string): Promise<ErpConnection> {
    return this.require(company, publicId);
  }

  list(company: CompanyContext, page: PageRequest): Promise<{ connections: ErpConnection[]; total: number }> {
    return this.connections.list(company.id, page);
  }

  async remove(company: CompanyContext, publicId: string): Promise<void> {
    const connection = await this.require(company, publicId);
    await this.connections.delete(company.id, connection.id);
  }

  async test(company: CompanyContext, publicId: string): Promise<ProbeResult> {
    return this.probe.run(await this.require(company, publicId));
  }

  async require(company: CompanyContext, publicId: string): Promise<ErpConnection> {
    const id = parsePublicId('erp', publicId);
    const connection = id ? await this.connections.findById(company.id, id) : null;
    if (!connection) throw new AppError('erp_connection.not_found', `ERP connection ${publicId} was not found`);
    return connection;
  }

  /** Stored secrets that no longer open (SECRETS_KEY was changed) count as unset: the request must give them again. */
  private storedSecrets(connection: ErpConnection): Secrets {
    try {
      return this.clients.secretsOf(connection);
    } catch (error) {
      if (error instanceof SecretBoxError) return {};
      throw error;
    }
  }

  /**
   * Another system, service or mapping: the watermarks say nothing about it, and the next pull reads
   * everything (an incremental pull from an old watermark could skip records).
   */
  private readsAnotherSource(before: ErpConnection, after: Settings): boolean {
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    return !(
      before.baseUrl === after.baseUrl &&
      before.odataVersion === after.odataVersion &&
      before.sapClient === after.sapClient &&
      same(before.servicePaths, after.servicePaths) &&
      same(before.mapping, after.mapping)
    );
  }

  /** Secrets named in the request replace (or, as null, remove) the stored ones; the method keeps only its own. */
  private applySecrets(stored: Secrets, dto: UpdateErpConnectionDto, method: Settings['authMethod']): Secrets {
    const merged: Secrets = { ...stored };
    for (const name of SECRET_NAMES) {
      const value = dto[name];
      if (value === null || value === '') delete merged[name];
      else if (value !== undefined) merged[name] = value;
    }
    return Object.fromEntries(Object.entries(merged).filter(([name]) => SECRETS_OF[method].includes(name as SecretName)));
  }

  private sealed(owner: { companyId: string; id: string }, secrets: Secrets) {
    return { secrets: this.clients.seal(owner, secrets), secretNames: Object.keys(secrets) as SecretName[] };
  }

  private async check(settings: Settings, secrets: Secrets): Promise<void> {
    const errors = await settingsProblems({ ...settings, secrets }, this.config.erp.allowPrivateNetworks);
    if (errors.length) throw validationFailed(errors);
  }

  private nextRun(settings: Settings, company: CompanyContext): Date | null {
    return settings.enabled && settings.schedule ? nextPullAt(settings.schedule, company.timeZone) : null;
  }
}
