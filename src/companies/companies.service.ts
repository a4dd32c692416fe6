// Creating a company with its first user and credentials, in one transaction.
import { Inject, Injectable } from '@nestjs/common';
import { CredentialsRepository } from '../auth/credentials.repository.js';
import { hashPassword } from '../auth/secrets.js';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';
import { newUuid, parsePublicId } from '../common/ids.js';
import type { CompanyContext } from '../auth/principal.js';
import type { Company } from './company.entity.js';
import { CompaniesRepository } from './companies.repository.js';
import type { CompanyProfileDto } from './dto/company-profile.dto.js';

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

  /** The signed-in company's record: name, time zone and contact e-mail. */
  async profile(company: CompanyContext): Promise<Company> {
    const found = await this.companies.findById(company.id);
    if (!found) throw new AppError('company.not_found', 'The company of this credential no longer exists');
    return found;
  }

  async updateProfile(company: CompanyContext, dto: CompanyProfileDto): Promise<void> {
    await this.companies.updateProfile(company.id, { name: dto.name, timeZone: dto.time_zone, contactEmail: dto.contact_email ?? null });
  }

  async issueToken(publicCompanyId: string, name: string): Promise<string> {
    const id = parsePublicId('cmp', publicCompanyId);
    const company = id ? await this.companies.findById(id) : null;
    if (!company) throw new AppError('company.not_found', `Company ${publicCompanyId} was not found`);
    return (await this.credentials.issueToken(company.id, name)).secret;
  }
}
