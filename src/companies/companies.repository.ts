// SQL for companies and their users.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../common/errors.js';
import { isUniqueViolation } from '../database/pg-errors.js';
import { Sql } from '../database/sql/sql.js';
import { statement } from '../database/sql/statement.js';
import { Company, type CompanyShippingDefaults } from './company.entity.js';

/** An owner manages users, keys, connections and settings; a member does the daily work (migration 1764720000000). */
export type UserRole = 'owner' | 'member';

const INSERT_USER = statement(
  'companies.insert_user',
  'INSERT INTO users (company_id, id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5)',
);
const UPDATE_SHIPPING_DEFAULTS = statement(
  'companies.update_shipping_defaults',
  'UPDATE companies SET shipping_mode = $2, autosend = $3, autoskip_shipping = $4, updated_at = now() WHERE id = $1',
);

const UPDATE_PROFILE = statement(
  'companies.update_profile',
  'UPDATE companies SET name = $2, time_zone = $3, contact_email = $4, updated_at = now() WHERE id = $1',
);

/** What the company settings page changes. */
export interface CompanyProfile {
  name: string;
  timeZone: string;
  contactEmail: string | null;
}

@Injectable()
export class CompaniesRepository {
  constructor(private readonly sql: Sql) {}

  async insertCompany(id: string, name: string, timeZone: string, manager: EntityManager): Promise<Company> {
    const company = manager.create(Company, {
      id,
      name,
      timeZone,
      contactEmail: null,
      shippingMode: 'email',
      autosend: false,
      autoskipShipping: false,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    return manager.save(company);
  }

  async insertUser(
    companyId: string,
    id: string,
    email: string,
    passwordHash: string,
    role: UserRole,
    manager: EntityManager,
  ): Promise<void> {
    try {
      await this.sql.run(INSERT_USER, [companyId, id, email, passwordHash, role], manager);
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) {
        throw new AppError('registration.email_taken', 'A user with this e-mail address exists already', [
          { field: 'email', message: 'email is already registered' },
        ]);
      }
      throw error;
    }
  }

  async updateShippingDefaults(id: string, defaults: CompanyShippingDefaults, manager: EntityManager): Promise<void> {
    await this.sql.run(UPDATE_SHIPPING_DEFAULTS, [id, defaults.shippingMode, defaults.autosend, defaults.autoskipShipping], manager);
  }

  async updateProfile(id: string, profile: CompanyProfile): Promise<void> {
    await this.sql.run(UPDATE_PROFILE, [id, profile.name, profile.timeZone, profile.contactEmail]);
  }

  findById(id: string, manager: EntityManager = this.sql.manager): Promise<Company | null> {
    return manager.getRepository(Company).findOneBy({ id });
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }
}
