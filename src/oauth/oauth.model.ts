// The model @node-oauth/oauth2-server calls for the authorization code grant (PKCE S256 when the
// client uses it) and the refresh token grant (rotated on every use). The library runs the protocol;
// this class only stores and finds what it asks for, hashed, in Postgres. Secrets that are not plain
// strings (a form's `a[]=…`) match nothing.
import { Injectable } from '@nestjs/common';
import OAuth2Server from '@node-oauth/oauth2-server';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret } from '../auth/secrets.js';
import { newUuid } from '../common/ids.js';
import { type OAuthApplication, OAuthApplicationsRepository } from './oauth-applications.repository.js';
import { OAuthCodesRepository } from './oauth-codes.repository.js';
import { OAuthTokensRepository } from './oauth-tokens.repository.js';

/** The only scope there is: pushing documents to /v2. */
export const PUSH_SCOPE = 'push';
export const GRANTS = ['authorization_code', 'refresh_token'];

export interface AppClient extends OAuth2Server.Client {
  id: string;
  companyId: string;
  applicationId: string;
  redirectUris: string[];
  grants: string[];
}

/** The user a token acts for, with the authorization (grant) it belongs to. */
export interface OAuthUser extends OAuth2Server.User {
  id: string;
  companyId: string;
  grantId?: string;
  codeId?: string;
  tokenId?: string;
}

export const randomSecret = (prefix: string): string => prefix + randomBytes(32).toString('base64url');

export function toClient(app: OAuthApplication): AppClient {
  return { id: app.clientId, companyId: app.companyId, applicationId: app.id, redirectUris: app.redirectUris, grants: GRANTS };
}

@Injectable()
export class OAuthModel implements OAuth2Server.AuthorizationCodeModel, OAuth2Server.RefreshTokenModel {
  constructor(
    private readonly applications: OAuthApplicationsRepository,
    private readonly codes: OAuthCodesRepository,
    private readonly tokens: OAuthTokensRepository,
  ) {}

  /** `null` secret: the authorize endpoint identifies the client; the token endpoint must authenticate it. */
  async getClient(clientId: string, clientSecret: string | null | undefined): Promise<AppClient | false> {
    if (typeof clientId !== 'string') return false;
    const app = await this.applications.findByClientId(clientId);
    if (!app || app.revokedAt) return false;
    if (clientSecret === null) return toClient(app);
    if (typeof clientSecret !== 'string' || !clientSecret) return false;
    const presented = hashSecret(clientSecret);
    return timingSafeEqual(presented, app.clientSecretHash) ? toClient(app) : false;
  }

  async generateAuthorizationCode(): Promise<string> {
    return randomBytes(32).toString('base64url');
  }

  async generateAccessToken(): Promise<string> {
    return randomSecret('roa_');
  }

  async generateRefreshToken(): Promise<string> {
    return randomSecret('ror_');
  }

  async validateScope(_user: OAuth2Server.User, _client: OAuth2Server.Client, scope?: string[]): Promise<string[] | false> {
    if (!scope || scope.length === 0) return [PUSH_SCOPE];
    return scope.every((s) => s === PUSH_SCOPE) ? [PUSH_SCOPE] : false;
  }

  /** Redirect URIs match exactly, character for character. */
  async validateRedirectUri(redirectUri: string, client: OAuth2Server.Client): Promise<boolean> {
    return (client as AppClient).redirectUris.includes(redirectUri);
  }

  async saveAuthorizationCode(
    code: Pick<OAuth2Server.AuthorizationCode, 'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'>,
    client: OAuth2Server.Client,
    user: OAuth2Server.User,
  ): Promise<OAuth2Server.AuthorizationCode> {
    if (code.codeChallenge && code.codeChallengeMethod !== 'S256') {
      throw new OAuth2Server.InvalidRequestError('Invalid request: code_challenge_method must be S256');
    }
    const app = client as AppClient;
    const codeId = await this.codes.insertCode(
      {
        companyId: app.companyId,
        applicationId: app.applicationId,
        userId: (user as OAuthUser).id,
        redirectUri: code.redirectUri,
        scope: code.scope?.join(' ') ?? null,
        codeChallenge: code.codeChallenge ?? null,
        codeChallengeMethod: code.codeChallenge ? 'S256' : null,
        expiresAt: code.expiresAt,
      },
      code.authorizationCode,
    );
    return { ...code, client, user: { ...user, codeId } };
  }

  async getAuthorizationCode(authorizationCode: string): Promise<OAuth2Server.AuthorizationCode | false> {
    if (typeof authorizationCode !== 'string') return false;
    const code = await this.codes.findCode(authorizationCode);
    if (!code) return false;
    if (code.usedAt) {
      // A code presented twice was intercepted or replayed: the tokens it produced stop working (RFC 6749 4.1.2).
      await this.tokens.revokeGrant(code.companyId, code.id);
      return false;
    }
    const client = await this.clientOf(code.companyId, code.applicationId);
    if (!client) return false;
    const user: OAuthUser = { id: code.userId, companyId: code.companyId, codeId: code.id, grantId: code.id };
    return {
      authorizationCode,
      expiresAt: code.expiresAt,
      redirectUri: code.redirectUri,
      scope: code.scope ? code.scope.split(' ') : undefined,
      client,
      user,
      // Without a challenge the library refuses a code_verifier (no PKCE downgrade).
      ...(code.codeChallenge ? { codeChallenge: code.codeChallenge, codeChallengeMethod: code.codeChallengeMethod ?? 'S256' } : {}),
    };
  }

  async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode): Promise<boolean> {
    const user = code.user as OAuthUser;
    return this.codes.useCode(user.companyId, user.codeId!);
  }

  async saveToken(token: OAuth2Server.Token, client: OAuth2Server.Client, user: OAuth2Server.User): Promise<OAuth2Server.Token> {
    const app = client as AppClient;
    const owner = user as OAuthUser;
    await this.tokens.insertToken({
      companyId: app.companyId,
      applicationId: app.applicationId,
      userId: owner.id,
      grantId: owner.grantId ?? newUuid(),
      accessToken: token.accessToken,
      accessTokenExpiresAt: token.accessTokenExpiresAt!,
      refreshToken: token.refreshToken,
      refreshTokenExpiresAt: token.refreshTokenExpiresAt,
      scope: token.scope?.join(' ') ?? null,
    });
    return { ...token, client, user };
  }

  /** Only for the library's own authenticate(); requests to /v2 go through the bearer strategy. */
  async getAccessToken(accessToken: string): Promise<OAuth2Server.Token | false> {
    if (typeof accessToken !== 'string') return false;
    const match = await this.tokens.findByAccessToken(accessToken);
    if (!match || match.token.revokedAt || match.applicationRevokedAt) return false;
    const client = await this.clientOf(match.token.companyId, match.token.applicationId);
    if (!client) return false;
    return {
      accessToken,
      accessTokenExpiresAt: match.token.accessTokenExpiresAt,
      scope: match.token.scope ? match.token.scope.split(' ') : undefined,
      client,
      user: { id: match.token.userId, companyId: match.token.companyId },
    };
  }

  async getRefreshToken(refreshToken: string): Promise<OAuth2Server.RefreshToken | false> {
    if (typeof refreshToken !== 'string') return false;
    const token = await this.tokens.findByRefreshToken(refreshToken);
    if (!token || token.revokedAt) return false;
    if (token.refreshUsedAt) {
      // A rotated refresh token came back: someone else holds a copy. The whole authorization is revoked.
      await this.tokens.revokeGrant(token.companyId, token.grantId);
      return false;
    }
    const client = await this.clientOf(token.companyId, token.applicationId);
    if (!client) return false;
    const user: OAuthUser = { id: token.userId, companyId: token.companyId, grantId: token.grantId, tokenId: token.id };
    return {
      refreshToken,
      refreshTokenExpiresAt: token.refreshTokenExpiresAt ?? undefined,
      scope: token.scope ? token.scope.split(' ') : undefined,
      client,
      user,
    };
  }

  async revokeToken(token: OAuth2Server.RefreshToken): Promise<boolean> {
    const user = token.user as OAuthUser;
    return this.tokens.spendRefreshToken(user.companyId, user.tokenId!);
  }

  private async clientOf(companyId: string, applicationId: string): Promise<AppClient | undefined> {
    const app = await this.applications.find(companyId, applicationId);
    return app && !app.revokedAt ? toClient(app) : undefined;
  }
}
