// The one global guard: every route needs a credential unless it is marked @Public(); which credentials
// it accepts comes from @Authenticated(...). Production refuses credentials sent over plain HTTP.
import { type CanActivate, type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, type IAuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';
import { AUTH_SCHEMES } from './auth.decorators.js';
import { credentialIdentifier, FailedAuthLimiter } from './failed-auth.limiter.js';
import type { AuthScheme } from './principal.js';

const CHALLENGE: Record<AuthScheme, string> = {
  token: 'Token realm="api"',
  apikey: 'ApiKey realm="push"',
  bearer: 'Bearer realm="push"',
};

/** How each scheme's header looks, for the 401 that names what the route accepts. */
const HEADER_FORM: Record<AuthScheme, string> = {
  token: '"Token token=<API token>"',
  apikey: '"ApiKey <API key>"',
  bearer: '"Bearer <OAuth access token>"',
};

@Injectable()
export class CredentialGuard implements CanActivate {
  private readonly passportGuards = new Map<string, IAuthGuard>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly failedAuth: FailedAuthLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const schemes = this.reflector.getAllAndOverride<AuthScheme[] | undefined>(AUTH_SCHEMES, [
      context.getHandler(),
      context.getClass(),
    ]) ?? ['token'];
    if (schemes.length === 0) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    res.setHeader('WWW-Authenticate', schemes.map((s) => CHALLENGE[s]).join(', '));
    if (this.config.env === 'production' && !req.secure) {
      throw new AppError('auth.insecure_transport', 'Credentials are only accepted over HTTPS');
    }
    const address = req.ip ?? 'unknown';
    const header = req.header('authorization');
    if (this.failedAuth.anyOverBudget) await this.failedAuth.assertIdentifierOpen(identifierOf(header), res);
    try {
      await this.passportGuard(schemes).canActivate(context);
    } catch (error) {
      const refused = error instanceof UnauthorizedException ? noStrategyMatched(req, schemes) : error;
      // Only a refused credential counts: a lookup that failed (database away) says nothing about the
      // caller, and counting it would lock an ERP out for a minute after the database is back.
      if (refused instanceof AppError && refused.status === 401)
        throw (await this.failedAuth.recordFailure(address, identifierOf(header), res)) ?? refused;
      throw refused;
    }
    res.removeHeader('WWW-Authenticate');
    return true;
  }

  private passportGuard(schemes: AuthScheme[]): IAuthGuard {
    const key = schemes.join(',');
    let guard = this.passportGuards.get(key);
    if (!guard) {
      guard = new (AuthGuard(schemes))();
      this.passportGuards.set(key, guard);
    }
    return guard;
  }
}

/** The limiter's identifier of the credential in an Authorization header (`Token token=…`, `ApiKey …`, `Bearer …`). */
function identifierOf(header: string | undefined): string | null {
  const match = header ? /^(\w+)\s+(?:token=)?"?([^\s"]+)/i.exec(header) : null;
  return match ? credentialIdentifier(match[1].toLowerCase(), match[2]) : null;
}

/**
 * Every strategy declined the header (none present, or another scheme): passport's bare 401 becomes a
 * problem document naming the accepted forms. A strategy whose scheme matched throws its own error.
 */
function noStrategyMatched(req: Request, schemes: AuthScheme[]): AppError {
  const forms = schemes.map((s) => HEADER_FORM[s]).join(' or ');
  return req.header('authorization') === undefined
    ? new AppError('auth.missing_credential', `An Authorization header ${forms} is required`)
    : new AppError('auth.invalid_credential', `The Authorization header must be ${forms}`);
}
