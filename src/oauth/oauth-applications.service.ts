// OAuth applications of a company (the ERP middleware registers one): client_id, a client secret
// shown once, and the redirect URIs that authorization requests must match exactly.
import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { CompanyContext } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError, type FieldError, validationFailed } from '../common/errors.js';
import { parsePublicId } from '../common/ids.js';
import type { PageRequest } from '../common/pagination.js';
import type { CreateOAuthApplicationDto } from './dto/oauth-application.dto.js';
import { randomSecret } from './oauth.model.js';
import { type OAuthApplication, OAuthApplicationsRepository } from './oauth-applications.repository.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

@Injectable()
export class OAuthApplicationsService {
  constructor(
    private readonly applications: OAuthApplicationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(company: CompanyContext, dto: CreateOAuthApplicationDto): Promise<{ application: OAuthApplication; clientSecret: string }> {
    const errors = dto.redirect_uris.flatMap((uri, i) => redirectUriProblems(uri, `redirect_uris[${i}]`, this.config.env === 'production'));
    if (errors.length) throw validationFailed(errors);
    const clientSecret = randomSecret('rcs_');
    const clientId = `rca_${randomBytes(16).toString('base64url')}`;
    const application = await this.applications.insert(company.id, dto.name, clientId, clientSecret, [...new Set(dto.redirect_uris)]);
    return { application, clientSecret };
  }

  list(company: CompanyContext, page: PageRequest) {
    return this.applications.list(company.id, page);
  }

  async get(company: CompanyContext, publicId: string): Promise<OAuthApplication> {
    const id = parsePublicId('app', publicId);
    const application = id ? await this.applications.find(company.id, id) : undefined;
    if (!application) throw notFound(publicId);
    return application;
  }

  /** A new client secret (shown once); the old one stops working at once, tokens already issued stay valid. */
  async regenerateSecret(company: CompanyContext, publicId: string): Promise<{ application: OAuthApplication; clientSecret: string }> {
    const application = await this.active(company, publicId);
    const clientSecret = randomSecret('rcs_');
    if (!(await this.applications.replaceSecret(company.id, application.id, clientSecret))) throw notFound(publicId);
    return { application, clientSecret };
  }

  /** Revokes every token granted to the application; it stays registered and may be authorized again. */
  async revokeTokens(company: CompanyContext, publicId: string): Promise<number> {
    const application = await this.active(company, publicId);
    return this.applications.revokeTokens(company.id, application.id);
  }

  /** Revokes the application and every token it holds. */
  async revoke(company: CompanyContext, publicId: string): Promise<void> {
    const id = parsePublicId('app', publicId);
    if (!id || !(await this.applications.revoke(company.id, id))) {
      throw notFound(publicId);
    }
  }

  /** The application, unless it is revoked (a revoked one is gone for every action). */
  private async active(company: CompanyContext, publicId: string): Promise<OAuthApplication> {
    const application = await this.get(company, publicId);
    if (application.revokedAt) throw notFound(publicId);
    return application;
  }
}

function notFound(publicId: string): AppError {
  return new AppError('oauth_application.not_found', `OAuth application ${publicId} was not found`);
}

/** Absolute https URLs without fragment; plain http only for loopback hosts outside production. */
function redirectUriProblems(uri: string, field: string, production: boolean): FieldError[] {
  if (!URL.canParse(uri)) return [{ field, message: `${field} must be an absolute URL` }];
  const url = new URL(uri);
  if (url.hash) return [{ field, message: `${field} must not have a fragment (#…)` }];
  if (url.protocol === 'https:') return [];
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname) && !production) return [];
  return [{ field, message: `${field} must use https (http only for localhost outside production)` }];
}
