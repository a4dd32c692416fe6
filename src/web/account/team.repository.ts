// SQL of the company's users as the team page manages them: the list with roles, a role change and the
// removal of a user with everything that would let them back in (sessions, open invitations they sent,
// OAuth grants; their password-reset links go by the foreign key's cascade).
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UserRole } from '../../companies/companies.repository.js';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import { END_USER_SESSIONS } from './password-resets.repository.js';

export interface TeamMember {
  id: string;
  email: string;
  role: UserRole;
  createdAt: Date;
}

export type TeamRole = Pick<TeamMember, 'id' | 'email' | 'role'>;

const MEMBERS = statement<TeamMember>(
  'account.team_members',
  `SELECT id, email, role, created_at AS "createdAt" FROM users WHERE company_id = $1 ORDER BY created_at, email`,
);
// Locks the company's users in one order: two owners demoting or removing each other at the same time
// take turns, so the second sees the first's change and the company keeps an owner.
const LOCKED_ROLES = statement<TeamRole>(
  'account.team_roles_locked',
  `SELECT id, email, role FROM users WHERE company_id = $1 ORDER BY id FOR UPDATE`,
);
const SET_ROLE = statement('account.set_user_role', `UPDATE users SET role = $3 WHERE company_id = $1 AND id = $2`);
const DELETE_SENT_INVITATIONS = statement(
  'account.delete_invitations_sent_by',
  `DELETE FROM invitations WHERE company_id = $1 AND invited_by = $2 AND used_at IS NULL`,
);
const DELETE_OAUTH_CODES = statement(
  'account.delete_user_oauth_codes',
  `DELETE FROM oauth_authorization_codes WHERE company_id = $1 AND user_id = $2`,
);
const DELETE_OAUTH_TOKENS = statement(
  'account.delete_user_oauth_tokens',
  `DELETE FROM oauth_tokens WHERE company_id = $1 AND user_id = $2`,
);
const DELETE_USER = statement('account.delete_user', `DELETE FROM users WHERE company_id = $1 AND id = $2`);

@Injectable()
export class TeamRepository {
  constructor(private readonly sql: Sql) {}

  members(companyId: string): Promise<TeamMember[]> {
    return this.sql.rows(MEMBERS, [companyId]);
  }

  /** The roles of the company's users, locked until the transaction ends. */
  lockedRoles(companyId: string, manager: EntityManager): Promise<TeamRole[]> {
    return this.sql.rows(LOCKED_ROLES, [companyId], manager);
  }

  async setRole(companyId: string, userId: string, role: UserRole, manager: EntityManager): Promise<void> {
    await this.sql.run(SET_ROLE, [companyId, userId, role], manager);
  }

  async remove(companyId: string, userId: string, manager: EntityManager): Promise<void> {
    await this.sql.run(END_USER_SESSIONS, [companyId, userId], manager);
    await this.sql.run(DELETE_SENT_INVITATIONS, [companyId, userId], manager);
    await this.sql.run(DELETE_OAUTH_CODES, [companyId, userId], manager);
    await this.sql.run(DELETE_OAUTH_TOKENS, [companyId, userId], manager);
    await this.sql.run(DELETE_USER, [companyId, userId], manager);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }
}
