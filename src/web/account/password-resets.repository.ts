// SQL of password resets: the links (password_resets), the user's new password and the end of their
// sessions. A link names its company, so it is looked up across companies by its hash.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Sql } from '../../database/sql/sql.js';
import { statement } from '../../database/sql/statement.js';
import type { Locale } from '../i18n.js';

export interface ResetCandidate {
  companyId: string;
  userId: string;
  email: string;
  locale: Locale;
  companyName: string;
  timeZone: string;
}

export interface OpenReset {
  companyId: string;
  userId: string;
  email: string;
}

const FIND_USER = statement<ResetCandidate>(
  'account.reset_find_user',
  `SELECT u.company_id AS "companyId", u.id AS "userId", u.email, u.locale, c.name AS "companyName", c.time_zone AS "timeZone"
     FROM users u JOIN companies c ON c.id = u.company_id
    WHERE lower(u.email) = lower($1) ORDER BY u.created_at LIMIT 1`,
  { crossTenant: 'a reset is asked for by e-mail address, before the company is known' },
);
const INSERT = statement(
  'account.reset_insert',
  `INSERT INTO password_resets (company_id, id, user_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)`,
);
const FIND_OPEN = statement<OpenReset>(
  'account.reset_find_open',
  `SELECT r.company_id AS "companyId", r.user_id AS "userId", u.email
     FROM password_resets r JOIN users u ON u.company_id = r.company_id AND u.id = r.user_id
    WHERE r.token_hash = $1 AND r.used_at IS NULL AND r.expires_at > now()`,
  { crossTenant: 'a reset link names its company: it is opened before anyone signed in' },
);
// Spends the link in the same statement that checks it: of two submissions of one link, one wins.
const SPEND = statement<{ companyId: string; userId: string }>(
  'account.reset_spend',
  `UPDATE password_resets SET used_at = now()
    WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
    RETURNING company_id AS "companyId", user_id AS "userId"`,
  { crossTenant: 'a reset link names its company: it is used before anyone signed in' },
);
const SPEND_OTHERS = statement(
  'account.reset_spend_others',
  `UPDATE password_resets SET used_at = now() WHERE company_id = $1 AND user_id = $2 AND used_at IS NULL`,
);
const SET_PASSWORD = statement('account.set_password', `UPDATE users SET password_hash = $3 WHERE company_id = $1 AND id = $2`);
// A session names no company column (web_sessions): who signed in is inside `sess`. Also the end of a
// removed user's sessions (team.repository.ts).
export const END_USER_SESSIONS = statement(
  'account.end_user_sessions',
  `DELETE FROM web_sessions WHERE sess->>'companyId' = $1::text AND sess->>'userId' = $2::text`,
);
const PRUNE = statement('account.reset_prune', `DELETE FROM password_resets WHERE expires_at < now() - interval '1 day'`, {
  crossTenant: 'housekeeping: links a day past their expiry are worth nothing to anyone',
});

@Injectable()
export class PasswordResetsRepository {
  constructor(private readonly sql: Sql) {}

  findUser(email: string): Promise<ResetCandidate | undefined> {
    return this.sql.first(FIND_USER, [email]);
  }

  async insert(companyId: string, id: string, userId: string, tokenHash: Buffer, expiresAt: Date): Promise<void> {
    await this.sql.run(INSERT, [companyId, id, userId, tokenHash, expiresAt]);
  }

  findOpen(tokenHash: Buffer): Promise<OpenReset | undefined> {
    return this.sql.first(FIND_OPEN, [tokenHash]);
  }

  spend(tokenHash: Buffer, manager: EntityManager): Promise<{ companyId: string; userId: string } | undefined> {
    return this.sql.first(SPEND, [tokenHash], manager);
  }

  /** The new password; every other link of the user is spent and every session of theirs ended. */
  async setPassword(companyId: string, userId: string, passwordHash: string, manager: EntityManager): Promise<void> {
    await this.sql.run(SET_PASSWORD, [companyId, userId, passwordHash], manager);
    await this.sql.run(SPEND_OTHERS, [companyId, userId], manager);
    await this.sql.run(END_USER_SESSIONS, [companyId, userId], manager);
  }

  async prune(): Promise<void> {
    await this.sql.run(PRUNE, []);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }
}
