// SQL for the authorization step of the OAuth server: the user who logs in to grant access, and the
// authorization codes (stored as SHA-256 only) that the client exchanges for tokens. Lookups by e-mail
// and by a code's hash come before the company is known; every other method takes the company id.
import { Injectable } from '@nestjs/common';
import { hashSecret } from '../auth/secrets.js';
import { newUuid } from '../common/ids.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

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

export interface LoginUser {
  companyId: string;
  id: string;
  passwordHash: string;
}

const FIND_USER_BY_EMAIL = statement<LoginUser>(
  'oauth.find_user_by_email',
  'SELECT company_id AS "companyId", id, password_hash AS "passwordHash" FROM users WHERE lower(email) = lower($1)',
  { crossTenant: 'an e-mail address names its company: the login comes before the company is known' },
);
const INSERT_CODE = statement(
  'oauth.insert_code',
  `INSERT INTO oauth_authorization_codes
     (company_id, id, application_id, user_id, code_hash, redirect_uri, scope, code_challenge, code_challenge_method, expires_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
);
const FIND_CODE = statement<StoredCode>(
  'oauth.find_code',
  `SELECT company_id AS "companyId", id, application_id AS "applicationId", user_id AS "userId", redirect_uri AS "redirectUri", scope,
          code_challenge AS "codeChallenge", code_challenge_method AS "codeChallengeMethod", expires_at AS "expiresAt", used_at AS "usedAt"
     FROM oauth_authorization_codes WHERE code_hash = $1`,
  { crossTenant: 'the code names its company: the exchange comes before the company is known' },
);
const USE_CODE = statement(
  'oauth.use_code',
  'UPDATE oauth_authorization_codes SET used_at = now() WHERE company_id = $1 AND id = $2 AND used_at IS NULL',
);

@Injectable()
export class OAuthCodesRepository {
  constructor(private readonly sql: Sql) {}

  findUserByEmail(email: string): Promise<LoginUser | undefined> {
    return this.sql.first(FIND_USER_BY_EMAIL, [email]);
  }

  async insertCode(code: Omit<StoredCode, 'id' | 'usedAt'>, secret: string): Promise<string> {
    const id = newUuid();
    await this.sql.run(INSERT_CODE, [
      code.companyId,
      id,
      code.applicationId,
      code.userId,
      hashSecret(secret),
      code.redirectUri,
      code.scope,
      code.codeChallenge,
      code.codeChallengeMethod,
      code.expiresAt,
    ]);
    return id;
  }

  findCode(secret: string): Promise<StoredCode | undefined> {
    return this.sql.first(FIND_CODE, [hashSecret(secret)]);
  }

  /** Marks the code used; false when it was used already (a code is good for one exchange). */
  async useCode(companyId: string, id: string): Promise<boolean> {
    return (await this.sql.affected(USE_CODE, [companyId, id])) === 1;
  }
}
