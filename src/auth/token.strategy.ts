// `Authorization: Token token=<t>` (the REST API token), as a passport strategy.
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { AppError } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { CredentialCache } from './credential-cache.js';
import { type CredentialMatch, CredentialsRepository } from './credentials.repository.js';
import type { Principal } from './principal.js';

const TOKEN_HEADER = /^Token\s+token=("?)([A-Za-z0-9_\-.~+/=]{1,512})\1\s*$/i;

@Injectable()
export class TokenStrategy extends PassportStrategy(Strategy, 'token') {
  private readonly cache: CredentialCache<CredentialMatch>;

  constructor(credentials: CredentialsRepository, @Inject(APP_CONFIG) config: AppConfig) {
    super();
    // API tokens are only ever revoked by hand in the database: that applies within tokenCacheSeconds.
    this.cache = new CredentialCache(
      (token) => credentials.findActiveToken(token),
      config.tokenCacheSeconds * 1000,
      (match) => match.credentialId,
    );
  }

  async validate(req: Request): Promise<Principal | null> {
    const header = req.header('authorization');
    // Another scheme (or none): decline, so that the next strategy of the route is tried.
    if (!header || !/^Token(\s|$)/i.test(header)) return null;
    const match = TOKEN_HEADER.exec(header);
    if (!match) throw new AppError('auth.invalid_credential', 'The Authorization header must be "Token token=<API token>"');
    const found = await this.cache.find(match[2]);
    if (!found) throw new AppError('auth.invalid_credential', 'The API token is not valid');
    return { company: found.company, credentialId: found.credentialId, scheme: 'token' };
  }
}
