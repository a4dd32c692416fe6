// API keys of a company: issue (90 days), list, revoke, rotate (the old key keeps working for a grace
// period), and the check behind `Authorization: ApiKey <key>`.
import { Inject, Injectable } from '@nestjs/common';
import type { CompanyContext, Principal } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import type { ApiKeysConfig } from '../config/integration.config.js';
import { formatDateTime } from '../common/dates.js';
import { AppError } from '../common/errors.js';
import { parsePublicId } from '../common/ids.js';
import type { PageRequest } from '../common/pagination.js';
import { type ApiKeyStatus, apiKeyStatus } from './api-key-state.js';
import { CredentialCache } from '../auth/credential-cache.js';
import { type ApiKeyRecord, ApiKeysRepository, type KeyMatch } from './api-keys.repository.js';

export interface ApiKeyView {
  key: ApiKeyRecord;
  status: ApiKeyStatus;
}

export interface Authenticated {
  principal: Principal;
  /** Set when the key expires within the warning window (or is a rotated key in its grace period). */
  expiresSoon?: Date;
}

@Injectable()
export class ApiKeysService {
  private readonly config: ApiKeysConfig;
  private readonly cache: CredentialCache<KeyMatch>;
  /** When this process last noted each key's use: at most one write a minute per key. */
  private readonly usesNoted = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeysRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.config = config.integration.apiKeys;
    this.cache = new CredentialCache(
      (secret) => this.keys.findBySecret(secret),
      this.config.cacheSeconds * 1000,
      (match) => match.key.id,
    );
  }

  async create(company: CompanyContext, name: string | null | undefined): Promise<ApiKeyView & { secret: string }> {
    const { key, secret } = await this.keys.issue(company.id, name ?? 'default', this.config.lifetimeDays);
    return { key, secret, status: this.status(key) };
  }

  async list(company: CompanyContext, page: PageRequest): Promise<{ items: ApiKeyView[]; total: number }> {
    const { keys, total } = await this.keys.list(company.id, page);
    return { items: keys.map((key) => ({ key, status: this.status(key) })), total };
  }

  async get(company: CompanyContext, publicId: string): Promise<ApiKeyView> {
    const key = await this.require(company, publicId);
    return { key, status: this.status(key) };
  }

  async revoke(company: CompanyContext, publicId: string): Promise<void> {
    const id = parsePublicId('key', publicId);
    const revoked = id ? await this.keys.revoke(company.id, id) : undefined;
    if (!revoked) throw new AppError('api_key.not_found', `API key ${publicId} was not found`);
    this.cache.forget(revoked.id);
  }

  /** A new key with the same name; the old one stays valid for the grace period (never longer than it had). */
  async rotate(company: CompanyContext, publicId: string): Promise<{ current: ApiKeyView & { secret: string }; previous: ApiKeyView }> {
    const id = parsePublicId('key', publicId);
    if (!id) throw new AppError('api_key.not_found', `API key ${publicId} was not found`);
    const rotated = await this.keys.transaction(async (manager) => {
      const old = await this.keys.find(company.id, id, manager, true);
      if (!old) throw new AppError('api_key.not_found', `API key ${publicId} was not found`);
      const status = this.status(old);
      if (status === 'revoked' || status === 'expired' || status === 'rotated') {
        throw new AppError('api_key.not_active', `API key ${publicId} is ${status} and cannot be rotated; create a new key instead`, [], {
          current_status: status,
        });
      }
      const { key, secret } = await this.keys.issue(company.id, old.name, this.config.lifetimeDays, manager);
      const graceEnd = new Date(Date.now() + this.config.rotationGraceHours * 3_600_000);
      const previous = await this.keys.markReplaced(old, key.id, graceEnd, manager);
      return { current: { key, secret, status: this.status(key) }, previous: { key: previous, status: this.status(previous) } };
    });
    this.cache.forget(id);
    return rotated;
  }

  /** The principal for a presented key; an unknown, revoked or expired key is a 401 that says which. */
  async authenticate(secret: string): Promise<Authenticated> {
    const match = await this.cache.find(secret);
    if (!match) throw new AppError('auth.invalid_credential', 'The API key is not valid');
    const { key, company } = match;
    const status = this.status(key);
    const at = (date: Date) => formatDateTime(date, company.timeZone);
    if (status === 'revoked') {
      throw new AppError('auth.credential_revoked', `The API key was revoked at ${at(key.revokedAt!)}; use another key or create one`);
    }
    if (status === 'expired') {
      const why = key.replacedBy ? ' (it was rotated and its grace period is over; use the new key)' : '';
      throw new AppError(
        'auth.credential_expired',
        `The API key expired at ${at(key.expiresAt)}${why}; API keys last ${this.config.lifetimeDays} days`,
      );
    }
    await this.noteUse(key);
    const principal: Principal = { company, credentialId: key.id, scheme: 'apikey' };
    return status === 'active' ? { principal } : { principal, expiresSoon: key.expiresAt };
  }

  private async noteUse(key: ApiKeyRecord): Promise<void> {
    const now = Date.now();
    if (now - (this.usesNoted.get(key.id) ?? 0) < 60_000) return;
    this.usesNoted.set(key.id, now);
    await this.keys.recordUse(key.companyId, key.id);
  }

  private status(key: ApiKeyRecord): ApiKeyStatus {
    return apiKeyStatus(key, new Date(), this.config.expiryWarningDays);
  }

  private async require(company: CompanyContext, publicId: string): Promise<ApiKeyRecord> {
    const id = parsePublicId('key', publicId);
    const key = id ? await this.keys.find(company.id, id) : undefined;
    if (!key) throw new AppError('api_key.not_found', `API key ${publicId} was not found`);
    return key;
  }
}
