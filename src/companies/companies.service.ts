// Creating a company with its first user and credentials, in one transaction.
import { Inject, Injectable } from '@nestjs/common';
import { CredentialsRepository } from '../auth/credentials.repository.js';
import { hashPassword } from '../auth/secrets.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';
import { newUuid, parsePublicId } from '../common/ids.js';
import type { Company } from './company.entity.js';
import { CompaniesRepository } from './companies.repository.js';

export interface NewCompany {
  company: Company;
  email: string;
  apiToken: string;
  apiKey: string;
  apiKeyExpiresAt: Date;
}

@Injectable()
export class CompaniesService {
  constructor(
    private readonly companies: CompaniesRepository,
    private readonly credentials: CredentialsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async createCompany(name: string, email: string, password: string): Promise<NewCompany> {
    const passwordHash = await hashPassword(password);
    return this.companies.transaction(async (manager) => {
      const company = await this.companies.insertCompany(newUuid(), name, this.config.defaultTimeZone, manager);
      await this.companies.insertUser(company.id, newUuid(), email, passwordHash, 'owner', manager);
      const token = await this.credentials.issueToken(company.id, 'default', manager);
      const key = await this.credentials.issueApiKey(company.id, 'default', manager);
      return { company, email, apiToken: token.secret, apiKey: key.secret, apiKeyExpiresAt: key.expiresAt };
    });
  }

  async issueToken(publicCompanyId: string, name: string): Promise<string> {
    const id = parsePublicId('cmp', publicCompanyId);
    const company = id ? await this.companies.findById(id) : null;
    if (!company) throw new AppError('company.not_found', `Company ${publicCompanyId} was not found`);
    return (await this.credentials.issueToken(company.id, name)).secret;
  }
}
