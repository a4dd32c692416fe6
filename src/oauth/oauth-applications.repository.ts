// SQL for OAuth applications (the clients of the authorization server). The client secret is stored as
// SHA-256 only. The lookup by client id comes before the company is known; every other method takes the
// company id.
import { Injectable } from '@nestjs/common';
import { hashSecret } from '../auth/secrets.js';
import { newUuid } from '../common/ids.js';
import type { PageRequest } from '../common/pagination.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';

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

/** The columns of an application as an OAuthApplication. */
const APPLICATION =
  'a.company_id AS "companyId", a.id, a.name, a.client_id AS "clientId", a.client_secret_hash AS "clientSecretHash", ' +
  'a.redirect_uris AS "redirectUris", a.revoked_at AS "revokedAt", a.created_at AS "createdAt"';

const INSERT = statement<OAuthApplication>(
  'oauth.insert_application',
  `INSERT INTO oauth_applications AS a (company_id, id, name, client_id, client_secret_hash, redirect_uris)
   VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${APPLICATION}`,
);
const PAGE = statement<OAuthApplication & { total: string }>(
  'oauth.application_page',
  `SELECT ${APPLICATION}, count(*) OVER () AS total FROM oauth_applications a
    WHERE a.company_id = $1 ORDER BY a.created_at, a.id LIMIT $2 OFFSET $3`,
);
const FIND = statement<OAuthApplication>(
  'oauth.find_application',
  `SELECT ${APPLICATION} FROM oauth_applications a WHERE a.company_id = $1 AND a.id = $2`,
);
const FIND_BY_CLIENT_ID = statement<OAuthApplication & { companyName: string }>(
  'oauth.find_application_by_client_id',
  `SELECT ${APPLICATION}, c.name AS "companyName" FROM oauth_applications a JOIN companies c ON c.id = a.company_id WHERE a.client_id = $1`,
  { crossTenant: 'the client id names its company: the lookup comes before the company is known' },
);
const REVOKE = statement(
  'oauth.revoke_application',
  'UPDATE oauth_applications SET revoked_at = coalesce(revoked_at, now()) WHERE company_id = $1 AND id = $2',
);
const REPLACE_SECRET = statement(
  'oauth.replace_application_secret',
  'UPDATE oauth_applications SET client_secret_hash = $3 WHERE company_id = $1 AND id = $2 AND revoked_at IS NULL',
);
const REVOKE_TOKENS = statement(
  'oauth.revoke_application_tokens',
  'UPDATE oauth_tokens SET revoked_at = now() WHERE company_id = $1 AND application_id = $2 AND revoked_at IS NULL',
);

@Injectable()
export class OAuthApplicationsRepository {
  constructor(private readonly sql: Sql) {}

  insert(companyId: string, name: string, clientId: string, clientSecret: string, redirectUris: string[]): Promise<OAuthApplication> {
    return this.sql.one(INSERT, [companyId, newUuid(), name, clientId, hashSecret(clientSecret), redirectUris]);
  }

  async list(companyId: string, page: PageRequest): Promise<{ applications: OAuthApplication[]; total: number }> {
    const rows = await this.sql.rows(PAGE, [companyId, page.perPage, page.offset]);
    return { applications: rows.map(({ total: _, ...application }) => application), total: rows.length ? Number(rows[0].total) : 0 };
  }

  find(companyId: string, id: string): Promise<OAuthApplication | undefined> {
    return this.sql.first(FIND, [companyId, id]);
  }

  findByClientId(clientId: string): Promise<(OAuthApplication & { companyName: string }) | undefined> {
    return this.sql.first(FIND_BY_CLIENT_ID, [clientId]);
  }

  /** Stores the hash of a new client secret for an application not revoked; false when there is none. */
  async replaceSecret(companyId: string, id: string, clientSecret: string): Promise<boolean> {
    return (await this.sql.affected(REPLACE_SECRET, [companyId, id, hashSecret(clientSecret)])) > 0;
  }

  /** Revokes every token issued to the application (the application stays); answers how many. */
  revokeTokens(companyId: string, id: string): Promise<number> {
    return this.sql.affected(REVOKE_TOKENS, [companyId, id]);
  }

  /** Revokes the application and every token issued to it, in one transaction. */
  revoke(companyId: string, id: string): Promise<boolean> {
    return this.sql.transaction(async (manager) => {
      if ((await this.sql.affected(REVOKE, [companyId, id], manager)) === 0) return false;
      await this.sql.run(REVOKE_TOKENS, [companyId, id], manager);
      return true;
    });
  }
}
