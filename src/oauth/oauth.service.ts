// The OAuth 2.0 authorization server (authorization code, refresh tokens rotated), built on
// @node-oauth/oauth2-server: this service validates the authorization request for the consent page,
// logs the user in, and hands the protocol steps to the library. Every application is a confidential
// client (it has a secret, and the token endpoint always authenticates it), so PKCE is optional, as
// RFC 9700 2.1.1 allows for confidential clients: SAP middleware destinations (OAuth2AuthorizationCode)
// exchange a code with client_id and client_secret only. A request that sends code_challenge must use
// S256 and is held to it at the token endpoint; a code_verifier for a code issued without one is refused.
import { Inject, Injectable, Logger } from '@nestjs/common';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Request } from 'express';
import type { Principal } from '../auth/principal.js';
import { verifyPassword } from '../auth/secrets.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { formatDateTime } from '../common/dates.js';
import { AppError } from '../common/errors.js';
import { OAuthModel, type OAuthUser } from './oauth.model.js';
import { type OAuthApplication, OAuthApplicationsRepository } from './oauth-applications.repository.js';
import { OAuthCodesRepository } from './oauth-codes.repository.js';
import { OAuthTokensRepository } from './oauth-tokens.repository.js';

/** The parameters of an authorization request that the consent form carries along. */
const AUTHORIZE_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

export type AuthorizeCheck =
  | { ok: true; application: OAuthApplication & { companyName: string }; params: Record<string, string>; redirectUri: string }
  /** Nothing can be sent back to the client: show the problem to the user. */
  | { ok: false; page: string }
  /** The client is known and the redirect URI registered: send the error there (RFC 6749 4.1.2.1). */
  | { ok: false; redirect: string };

export interface OAuthAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A password check against this when the e-mail is unknown, so both cases take as long. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

@Injectable()
export class OAuthService {
  private readonly logger = new Logger(OAuthService.name);
  private readonly server: OAuth2Server;

  constructor(
    private readonly applications: OAuthApplicationsRepository,
    private readonly codes: OAuthCodesRepository,
    private readonly tokens: OAuthTokensRepository,
    model: OAuthModel,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const lifetimes = config.integration.oauth;
    this.server = new OAuth2Server({
      model,
      authorizationCodeLifetime: lifetimes.codeLifetimeSeconds,
      accessTokenLifetime: lifetimes.accessTokenLifetimeSeconds,
      refreshTokenLifetime: lifetimes.refreshTokenLifetimeSeconds,
      allowEmptyState: true,
      alwaysIssueNewRefreshToken: true,
      requireClientAuthentication: { authorization_code: true, refresh_token: true },
    });
  }

  /** Checks an authorization request before anything is shown; the order follows RFC 6749 4.1.2.1. */
  async checkAuthorization(input: Record<string, unknown>): Promise<AuthorizeCheck> {
    const params: Record<string, string> = {};
    for (const name of AUTHORIZE_PARAMS) {
      const value = input[name];
      if (typeof value === 'string' && value !== '') params[name] = value;
    }
    const application = params.client_id ? await this.applications.findByClientId(params.client_id) : undefined;
    if (!application || application.revokedAt) return { ok: false, page: 'Unbekannte Anwendung (client_id).' };
    const redirectUri = params.redirect_uri ?? (application.redirectUris.length === 1 ? application.redirectUris[0] : undefined);
    if (!redirectUri || !application.redirectUris.includes(redirectUri)) {
      return { ok: false, page: 'Die Rücksprungadresse (redirect_uri) ist für diese Anwendung nicht registriert.' };
    }
    const refuse = (error: string, description: string) => ({ ok: false as const, redirect: errorRedirect(redirectUri, error, description, params.state) });
    if (params.response_type !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
    if (params.code_challenge !== undefined || params.code_challenge_method !== undefined) {
      if (!params.code_challenge || !/^[A-Za-z0-9._~-]{43,128}$/.test(params.code_challenge)) {
        return refuse('invalid_request', 'code_challenge must be 43 to 128 characters (the S256 hash of the code_verifier, base64url)');
      }
      if (params.code_challenge_method !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256');
    }
    if (params.scope && params.scope.split(' ').some((s) => s !== 'push')) return refuse('invalid_scope', 'the only scope is push');
    return { ok: true, application, params: { ...params, redirect_uri: redirectUri }, redirectUri };
  }

  /** The user with this e-mail and password, if they belong to the application's company. */
  async login(application: OAuthApplication, email: string, password: string): Promise<OAuthUser | undefined> {
    const user = email ? await this.codes.findUserByEmail(email) : undefined;
    const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH).catch(() => false);
    if (!user || !valid || user.companyId !== application.companyId) return undefined;
    return { id: user.id, companyId: user.companyId };
  }

  /** Issues the code through the library and returns where to send the browser. */
  async approve(params: Record<string, string>, user: OAuthUser): Promise<string> {
    const request = new OAuth2Server.Request({ method: 'POST', headers: {}, query: {}, body: { ...params } });
    const response = new OAuth2Server.Response();
    try {
      await this.server.authorize(request, response, { authenticateHandler: { handle: () => user } });
    } catch (error) {
      if (!(error instanceof OAuth2Server.OAuthError)) throw error;
      if (error instanceof OAuth2Server.ServerError) this.logger.error({ err: error }, 'authorization failed');
    }
    const location = response.get('location') as string | undefined;
    if (!location) throw new Error('the authorization server gave no redirect');
    return location;
  }

  deny(redirectUri: string, state: string | undefined): string {
    return errorRedirect(redirectUri, 'access_denied', 'the user denied access', state);
  }

  /** POST /oauth/token: the library's answer (token or RFC 6749 error body), ready to send. */
  async token(req: Request): Promise<OAuthAnswer> {
    const repeated = nonStringParameter(req.body);
    if (repeated) return invalidRequest(`Invalid request: \`${repeated}\` must be sent once, as a plain value`);
    const request = new OAuth2Server.Request({ method: req.method, headers: req.headers as Record<string, string>, query: {}, body: req.body ?? {} });
    const response = new OAuth2Server.Response();
    try {
      await this.server.token(request, response);
    } catch (error) {
      if (!(error instanceof OAuth2Server.OAuthError)) throw error;
      if (error instanceof OAuth2Server.ServerError) this.logger.error({ err: error }, 'token request failed');
      // Checks before the library's own error handling (method, content type) leave the response empty.
      response.status = error.code;
      response.body = { error: error.name, error_description: error.message };
    }
    return { status: response.status ?? 500, headers: (response.headers ?? {}) as Record<string, string>, body: response.body };
  }

  /** `Authorization: Bearer <access token>` on /v2: the principal, or a 401 saying why not. */
  async authenticateAccessToken(accessToken: string): Promise<Principal> {
    const match = await this.tokens.findByAccessToken(accessToken);
    if (!match) throw new AppError('auth.invalid_credential', 'The access token is not valid');
    const { token, company } = match;
    const revokedAt = token.revokedAt ?? match.applicationRevokedAt;
    if (revokedAt) throw new AppError('auth.credential_revoked', `The access token was revoked at ${formatDateTime(revokedAt, company.timeZone)}`);
    if (token.accessTokenExpiresAt <= new Date()) {
      throw new AppError(
        'auth.credential_expired',
        `The access token expired at ${formatDateTime(token.accessTokenExpiresAt, company.timeZone)}; get a new one with grant_type=refresh_token at /oauth/token`,
      );
    }
    return { company, credentialId: token.id, scheme: 'bearer' };
  }
}

function errorRedirect(redirectUri: string, error: string, description: string, state: string | undefined): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state) url.searchParams.set('state', state);
  return url.toString();
}

/**
 * The form parser reads `a[]=1`, `a=1&a=2` and `a[b]=1` as arrays and objects; RFC 6749 3.1 allows each
 * parameter once, as a string. Returns the first parameter that is not one.
 */
function nonStringParameter(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) return 'body';
  return Object.entries(body as Record<string, unknown>).find(([, value]) => typeof value !== 'string')?.[0];
}

function invalidRequest(description: string): OAuthAnswer {
  return { status: 400, headers: {}, body: { error: 'invalid_request', error_description: description } };
}
