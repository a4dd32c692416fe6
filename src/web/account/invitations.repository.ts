// SQL of invitations into a company, each with the role the invitee gets, and the team page's open ones.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UserRole } from '../../companies/companies.repository.js';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import type { Locale } from '../i18n.js';

export interface OpenInvitation {
  id: string;
  email: string;
  role: UserRole;
  createdAt: Date;
  expiresAt: Date;
  /** The inviting user's e-mail; null for an operator's invitation. */
  invitedBy: string | null;
}

/** An invitation as its link opens it. */
export interface InvitationByLink {
  companyId: string;
  id: string;
  email: string;
  role: UserRole;
  locale: Locale;
  companyName: string;
}

export interface NewInvitation {
  companyId: string;
  id: string;
  email: string;
  role: UserRole;
  locale: Locale;
  invitedBy: string | null;
  tokenHash: Buffer;
  expiresAt: Date;
}

const OPEN = statement<OpenInvitation>(
  'account.open_invitations',
  `SELECT i.id, i.email, i.role, i.created_at AS "createdAt", i.expires_at AS "expiresAt", u.email AS "invitedBy"
     FROM invitations i LEFT JOIN users u ON u.company_id = i.company_id AND u.id = i.invited_by
    WHERE i.company_id = $1 AND i.used_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()
    ORDER BY i.created_at DESC`,
);
const MEMBER_BY_EMAIL = statement<{ id: string }>(
  'account.member_by_email',
  `SELECT id FROM users WHERE company_id = $1 AND lower(email) = lower($2)`,
);
// A new invitation replaces the open one of the same address (expired or not): the unique index allows one.
const REVOKE_BY_EMAIL = statement(
  'account.revoke_invitation_by_email',
  `UPDATE invitations SET revoked_at = now() WHERE company_id = $1 AND lower(email) = lower($2) AND used_at IS NULL AND revoked_at IS NULL`,
);
const INSERT = statement(
  'account.insert_invitation',
  `INSERT INTO invitations (company_id, id, email, role, locale, invited_by, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
);
const REVOKE = statement(
  'account.revoke_invitation',
  `UPDATE invitations SET revoked_at = now() WHERE company_id = $1 AND id = $2 AND used_at IS NULL AND revoked_at IS NULL`,
);
const DELETE = statement('account.delete_invitation', `DELETE FROM invitations WHERE company_id = $1 AND id = $2`);
const BY_LINK = statement<InvitationByLink>(
  'account.invitation_by_link',
  `SELECT i.company_id AS "companyId", i.id, i.email, i.role, i.locale, c.name AS "companyName"
     FROM invitations i JOIN companies c ON c.id = i.company_id
    WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()`,
  { crossTenant: 'an invitation link names its company: it is opened before the invitee has an account' },
);
// Checks and spends the link in one statement: of two submissions of one link, one wins.
const SPEND = statement<InvitationByLink>(
  'account.spend_invitation',
  `UPDATE invitations SET used_at = now()
    WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
    RETURNING company_id AS "companyId", id, email, role, locale, ''::text AS "companyName"`,
  { crossTenant: 'an invitation link names its company: it is used before the invitee has an account' },
);
const SET_USER = statement('account.invitation_user', `UPDATE invitations SET user_id = $3 WHERE company_id = $1 AND id = $2`);
const SET_LOCALE = statement('account.new_user_locale', `UPDATE users SET locale = $3 WHERE company_id = $1 AND id = $2`);

@Injectable()
export class InvitationsRepository {
  constructor(private readonly sql: Sql) {}

  open(companyId: string): Promise<OpenInvitation[]> {
    return this.sql.rows(OPEN, [companyId]);
  }

  async isMember(companyId: string, email: string): Promise<boolean> {
    return (await this.sql.first(MEMBER_BY_EMAIL, [companyId, email])) !== undefined;
  }

  async insert(invitation: NewInvitation): Promise<void> {
    const { companyId, id, email, role, locale, invitedBy, tokenHash, expiresAt } = invitation;
    await this.sql.transaction(async (manager) => {
      await this.sql.run(REVOKE_BY_EMAIL, [companyId, email], manager);
      await this.sql.run(INSERT, [companyId, id, email, role, locale, invitedBy, tokenHash, expiresAt], manager);
    });
  }

  /** True when an open invitation of the company was revoked. */
  async revoke(companyId: string, id: string): Promise<boolean> {
    return (await this.sql.affected(REVOKE, [companyId, id])) > 0;
  }

  /** An invitation whose e-mail could not be sent never existed. */
  async delete(companyId: string, id: string): Promise<void> {
    await this.sql.run(DELETE, [companyId, id]);
  }

  byLink(tokenHash: Buffer): Promise<InvitationByLink | undefined> {
    return this.sql.first(BY_LINK, [tokenHash]);
  }

  spend(tokenHash: Buffer, manager: EntityManager): Promise<InvitationByLink | undefined> {
    return this.sql.first(SPEND, [tokenHash], manager);
  }

  async recordUser(companyId: string, invitationId: string, userId: string, locale: Locale, manager: EntityManager): Promise<void> {
    await this.sql.run(SET_USER, [companyId, invitationId, userId], manager);
    await this.sql.run(SET_LOCALE, [companyId, userId, locale], manager);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }
}
