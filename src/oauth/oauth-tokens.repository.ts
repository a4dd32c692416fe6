// SQL for the OAuth authorization server: applications, authorization codes and tokens. Secrets
// (client secrets, codes, tokens) are stored as SHA-256 only. Lookups by a secret's hash come before
// the company is known; every other method takes the company id. Writes whose rows matter are wrapped
// as `WITH … UPDATE … RETURNING` + SELECT: TypeORM answers a bare UPDATE with [rows, count].
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { hashSecret } from '../auth/secrets.js';
import { newUuid } from '../common/ids.js';
import type { PageRequest } from '../common/pagination.js';

export interface OAuthApplication {
  companyId: string;
  id: string;
  name: string;
  clientId: string;
  clientSecretHash: Buffer;
  redirectUris: string[];
  revokedAt: Date | null;
  createdAt: Date;
}

interface ApplicationRow {
  company_id: string;
  id: string;
  name: string;
  client_id: string;
  client_secret_hash: Buffer;
  redirect_uris: string[];
  revoked_at: Date | null;
  created_at: Date;
}

const APP_COLUMNS = 'a.company_id, a.id, a.name, a.client_id, a.client_secret_hash, a.redirect_uris, a.revoked_at, a.created_at';

const toApplication = (row: ApplicationRow): OAuthApplication => ({
  companyId: row.company_id,
  id: row.id,
  name: row.name,
  clientId: row.client_id,
  clientSecretHash: row.client_secret_hash,
  redirectUris: row.redirect_uris,
  revokedAt: row.revoked_at,
  createdAt: row.created_at,
});

export interface StoredCode {
  companyId: string;
  id: string;
  applicationId: string;
  userId: string;
  redirectUri: string;
  scope: string | null;
  /** Null: the client did not use PKCE (a confidential client authenticates with its secret). */
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: Date;
  usedAt: Date | null;
}

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

export interface LoginUser {
  companyId: string;
  id: string;
  passwordHash: string;
}

@Injectable()
export class OAuthRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insertApplication(companyId: string, name: string, clientId: string, clientSecret: string, redirectUris: string[]): Promise<OAuthApplication> {
    const rows: ApplicationRow[] = await this.db.query(
      `INSERT INTO oauth_applications AS a (company_id, id, name, client_id, client_secret_hash, redirect_uris)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${APP_COLUMNS}`,
      [companyId, newUuid(), name, clientId, hashSecret(clientSecret), redirectUris],
    );
    return toApplication(rows[0]);
  }

  async listApplications(companyId: string, page: PageRequest): Promise<{ applications: OAuthApplication[]; total: number }> {
    const rows: Array<ApplicationRow & { total: string }> = await this.db.query(
      `SELECT ${APP_COLUMNS}, count(*) OVER () AS total FROM oauth_applications a
        WHERE a.company_id = $1 ORDER BY a.created_at, a.id LIMIT $2 OFFSET $3`,
      [companyId, page.perPage, page.offset],
    );
    return { applications: rows.map(toApplication), total: rows.length ? Number(rows[0].total) : 0 };
  }

  async findApplication(companyId: string, id: string): Promise<OAuthApplication | undefined> {
    const rows: ApplicationRow[] = await this.db.query(`SELECT ${APP_COLUMNS} FROM oauth_applications a WHERE a.company_id = $1 AND a.id = $2`, [companyId, id]);
    return rows[0] && toApplication(rows[0]);
  }

  async findApplicationByClientId(clientId: string): Promise<(OAuthApplication & { companyName: string }) | undefined> {
    const rows: Array<ApplicationRow & { company_name: string }> = await this.db.query(
      `SELECT ${APP_COLUMNS}, c.name AS company_name FROM oauth_applications a JOIN companies c ON c.id = a.company_id WHERE a.client_id = $1`,
      [clientId],
    );
    return rows[0] && { ...toApplication(rows[0]), companyName: rows[0].company_name };
  }

  /** Revokes the application and every token issued to it, in one transaction. */
  async revokeApplication(companyId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      const rows: unknown[] = await manager.query(
        `WITH a AS (UPDATE oauth_applications SET revoked_at = coalesce(revoked_at, now()) WHERE company_id = $1 AND id = $2 RETURNING id) SELECT id FROM a`,
        [companyId, id],
      );
      if (rows.length === 0) return false;
      await manager.query(`UPDATE oauth_tokens SET revoked_at = now() WHERE company_id = $1 AND application_id = $2 AND revoked_at IS NULL`, [companyId, id]);
      return true;
    });
  }

  async findUserByEmail(email: string): Promise<LoginUser | undefined> {
    const rows: Array<{ company_id: string; id: string; password_hash: string }> = await this.db.query(
      `SELECT company_id, id, password_hash FROM users WHERE lower(email) = lower($1)`,
      [email],
    );
    return rows[0] && { companyId: rows[0].company_id, id: rows[0].id, passwordHash: rows[0].password_hash };
  }

  async insertCode(code: Omit<StoredCode, 'id' | 'usedAt'>, secret: string): Promise<string> {
    const id = newUuid();
    await this.db.query(
      `INSERT INTO oauth_authorization_codes
         (company_id, id, application_id, user_id, code_hash, redirect_uri, scope, code_challenge, code_challenge_method, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [code.companyId, id, code.applicationId, code.userId, hashSecret(secret), code.redirectUri, code.scope, code.codeChallenge, code.codeChallengeMethod, code.expiresAt],
    );
    return id;
  }

  async findCode(secret: string): Promise<StoredCode | undefined> {
    const rows: CodeRow[] = await this.db.query(
      `SELECT company_id, id, application_id, user_id, redirect_uri, scope, code_challenge, code_challenge_method, expires_at, used_at
         FROM oauth_authorization_codes WHERE code_hash = $1`,
      [hashSecret(secret)],
    );
    const r = rows[0];
    return (
      r && {
        companyId: r.company_id,
        id: r.id,
        applicationId: r.application_id,
        userId: r.user_id,
        redirectUri: r.redirect_uri,
        scope: r.scope,
        codeChallenge: r.code_challenge,
        codeChallengeMethod: r.code_challenge_method,
        expiresAt: r.expires_at,
        usedAt: r.used_at,
      }
    );
  }

  /** Marks the code used; false when it was used already (a code is good for one exchange). */
  async useCode(companyId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH c AS (UPDATE oauth_authorization_codes SET used_at = now() WHERE company_id = $1 AND id = $2 AND used_at IS NULL RETURNING id) SELECT id FROM c`,
      [companyId, id],
    );
    return rows.length === 1;
  }

  async insertToken(token: NewToken): Promise<string> {
    const id = newUuid();
    await this.db.query(
      `INSERT INTO oauth_tokens (company_id, id, application_id, user_id, grant_id, access_token_hash, access_token_expires_at,
         refresh_token_hash, refresh_token_expires_at, scope)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
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
      ],
    );
    return id;
  }

  async findByRefreshToken(secret: string): Promise<StoredToken | undefined> {
    const rows: TokenRow[] = await this.db.query(`SELECT ${TOKEN_COLUMNS} FROM oauth_tokens t WHERE t.refresh_token_hash = $1`, [hashSecret(secret)]);
    return rows[0] && toToken(rows[0]);
  }

  async findByAccessToken(secret: string): Promise<AccessTokenMatch | undefined> {
    const rows: Array<TokenRow & { application_revoked_at: Date | null; company_name: string; time_zone: string }> = await this.db.query(
      `SELECT ${TOKEN_COLUMNS}, a.revoked_at AS application_revoked_at, c.name AS company_name, c.time_zone
         FROM oauth_tokens t
         JOIN oauth_applications a ON a.company_id = t.company_id AND a.id = t.application_id
         JOIN companies c ON c.id = t.company_id
        WHERE t.access_token_hash = $1`,
      [hashSecret(secret)],
    );
    const row = rows[0];
    return row && { token: toToken(row), applicationRevokedAt: row.application_revoked_at, company: { id: row.company_id, name: row.company_name, timeZone: row.time_zone } };
  }

  /** Rotation: the refresh token is spent; false when it was spent already. */
  async spendRefreshToken(companyId: string, id: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH t AS (UPDATE oauth_tokens SET refresh_used_at = now() WHERE company_id = $1 AND id = $2 AND refresh_used_at IS NULL AND revoked_at IS NULL RETURNING id)
       SELECT id FROM t`,
      [companyId, id],
    );
    return rows.length === 1;
  }

  /** A replayed code or refresh token: every token of that authorization stops working. */
  async revokeGrant(companyId: string, grantId: string): Promise<void> {
    await this.db.query(`UPDATE oauth_tokens SET revoked_at = now() WHERE company_id = $1 AND grant_id = $2 AND revoked_at IS NULL`, [companyId, grantId]);
  }
}

interface CodeRow {
  company_id: string;
  id: string;
  application_id: string;
  user_id: string;
  redirect_uri: string;
  scope: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  expires_at: Date;
  used_at: Date | null;
}

interface TokenRow {
  company_id: string;
  id: string;
  application_id: string;
  user_id: string;
  grant_id: string;
  access_token_expires_at: Date;
  refresh_token_expires_at: Date | null;
  refresh_used_at: Date | null;
  scope: string | null;
  revoked_at: Date | null;
}

const TOKEN_COLUMNS =
  't.company_id, t.id, t.application_id, t.user_id, t.grant_id, t.access_token_expires_at, t.refresh_token_expires_at, t.refresh_used_at, t.scope, t.revoked_at';

const toToken = (r: TokenRow): StoredToken => ({
  companyId: r.company_id,
  id: r.id,
  applicationId: r.application_id,
  userId: r.user_id,
  grantId: r.grant_id,
  accessTokenExpiresAt: r.access_token_expires_at,
  refreshTokenExpiresAt: r.refresh_token_expires_at,
  refreshUsedAt: r.refresh_used_at,
  scope: r.scope,
  revokedAt: r.revoked_at,
});
