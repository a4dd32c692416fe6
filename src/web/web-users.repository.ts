// The company users who sign in to the web app (the users table that registration fills).
import { Injectable } from '@nestjs/common';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';
import type { UserRole } from '../companies/companies.repository.js';
import type { Locale } from './i18n.js';

export interface LoginCandidate {
  companyId: string;
  id: string;
  passwordHash: string;
}

export interface SignedInUser {
  id: string;
  email: string;
  role: UserRole;
  locale: Locale;
  companyId: string;
  companyName: string;
  timeZone: string;
}

const FIND_BY_EMAIL = statement<LoginCandidate>(
  'web.find_user_by_email',
  'SELECT company_id AS "companyId", id, password_hash AS "passwordHash" FROM users WHERE lower(email) = lower($1) ORDER BY created_at LIMIT 1',
  { crossTenant: 'an e-mail address names its company: the sign-in comes before the company is known' },
);
const SIGNED_IN = statement<SignedInUser>(
  'web.signed_in_user',
  `SELECT u.id, u.email, u.role, u.locale, c.id AS "companyId", c.name AS "companyName", c.time_zone AS "timeZone"
     FROM users u JOIN companies c ON c.id = u.company_id
    WHERE u.company_id = $1 AND u.id = $2`,
);
const SET_LOCALE = statement('web.set_user_locale', 'UPDATE users SET locale = $3 WHERE company_id = $1 AND id = $2');

@Injectable()
export class WebUsersRepository {
  constructor(private readonly sql: Sql) {}

  findByEmail(email: string): Promise<LoginCandidate | undefined> {
    return this.sql.first(FIND_BY_EMAIL, [email]);
  }

  /** The user of a session, if they (and their company) still exist. */
  signedIn(companyId: string, userId: string): Promise<SignedInUser | undefined> {
    return this.sql.first(SIGNED_IN, [companyId, userId]);
  }

  async setLocale(companyId: string, userId: string, locale: Locale): Promise<void> {
    await this.sql.run(SET_LOCALE, [companyId, userId, locale]);
  }
}
