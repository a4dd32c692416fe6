// SQL for the tokens of the OAuth server: access and refresh tokens, stored as SHA-256 only. Lookups by
// a token's hash come before the company is known; every other method takes the company id.
import { Injectable } from '@nestjs/common';
import { hashSecret } from '../auth/secrets.js';
import { newUuid } from '../common/ids.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

export interface StoredToken {
  companyId: string;
  id: string;
  applicationId: string;
  userId: string;
  grantId: string;
  accessTokenExpiresAt: Date;
  refreshTokenExpiresAt: Date | null;
  refreshUsedAt: Date | null;
  scope: string | null;
  revokedAt: Date | null;
}

export interface NewToken {
  companyId: string;
  applicationId: string;
  userId: string;
  grantId: string;
  accessToken: string;
  accessTokenExpiresAt: Date;
  refreshToken?: string;
  refreshTokenExpiresAt?: Date;
  scope: string | null;
}

export interface AccessTokenMatch {
  token: StoredToken;
  applicationRevokedAt: Date | null;
  company: { id: string; name: string; timeZone: string };
}

/** The columns of a token as a StoredToken. */
const TOKEN =
  't.company_id AS "companyId", t.id, t.application_id AS "applicationId", t.user_id AS "userId", t.grant_id AS "grantId", ' +
  't.access_token_expires_at AS "accessTokenExpiresAt", t.refresh_token_expires_at AS "refreshTokenExpiresAt", ' +
  't.refresh_used_at AS "refreshUsedAt", t.scope, t.revoked_at AS "revokedAt"';

const INSERT = statement(
  'oauth.insert_token',
  `INSERT INTO oauth_tokens (company_id, id, application_id, user_id, grant_id, access_token_hash, access_token_expires_at,
     refresh_token_hash, refresh_token_expires_at, scope)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
);
const FIND_BY_REFRESH_TOKEN = statement<StoredToken>(
  'oauth.find_by_refresh_token',
  `SELECT ${TOKEN} FROM oauth_tokens t WHERE t.refresh_token_hash = $1`,
  { crossTenant: 'the refresh token names its company: the lookup comes before the company is known' },
);
const FIND_BY_ACCESS_TOKEN = statement<StoredToken & { applicationRevokedAt: Date | null; companyName: string; timeZone: string }>(
  'oauth.find_by_access_token',
  `SELECT ${TOKEN}, a.revoked_at AS "applicationRevokedAt", c.name AS "companyName", c.time_zone AS "timeZone"
     FROM oauth_tokens t
     JOIN oauth_applications a ON a.company_id = t.company_id AND a.id = t.application_id
     JOIN companies c ON c.id = t.company_id
    WHERE t.access_token_hash = $1`,
  { crossTenant: 'the access token names its company: the lookup comes before the company is known' },
);
const SPEND_REFRESH_TOKEN = statement(
  'oauth.spend_refresh_token',
  'UPDATE oauth_tokens SET refresh_used_at = now() WHERE company_id = $1 AND id = $2 AND refresh_used_at IS NULL AND revoked_at IS NULL',
);
const REVOKE_GRANT = statement('oauth.revoke_grant', 'UPDATE oauth_tokens SET revoked_at = now() WHERE company_id = $1 AND grant_id = $2 AND revoked_at IS NULL');

@Injectable()
export class OAuthTokensRepository {
  constructor(private readonly sql: Sql) {}

  async insertToken(token: NewToken): Promise<string> {
    const id = newUuid();
    await this.sql.run(INSERT, [
      token.companyId,
      id,
      token.applicationId,
      token.userId,
      token.grantId,
      hashSecret(token.accessToken),
      token.accessTokenExpiresAt,
      token.refreshToken ? hashSecret(token.refreshToken) : null,
      token.refreshTokenExpiresAt ?? null,
      token.scope,
    ]);
    return id;
  }

  findByRefreshToken(secret: string): Promise<StoredToken | undefined> {
    return this.sql.first(FIND_BY_REFRESH_TOKEN, [hashSecret(secret)]);
  }

  async findByAccessToken(secret: string): Promise<AccessTokenMatch | undefined> {
    const row = await this.sql.first(FIND_BY_ACCESS_TOKEN, [hashSecret(secret)]);
    if (!row) return undefined;
    const { applicationRevokedAt, companyName, timeZone, ...token } = row;
    return { token, applicationRevokedAt, company: { id: token.companyId, name: companyName, timeZone } };
  }

  /** Rotation: the refresh token is spent; false when it was spent already. */
  async spendRefreshToken(companyId: string, id: string): Promise<boolean> {
    return (await this.sql.affected(SPEND_REFRESH_TOKEN, [companyId, id])) === 1;
  }

  /** A replayed code or refresh token: every token of that authorization stops working. */
  async revokeGrant(companyId: string, grantId: string): Promise<void> {
    await this.sql.run(REVOKE_GRANT, [companyId, grantId]);
  }
}
