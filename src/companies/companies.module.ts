// Companies (tenants), their users and the credentials issued to them.
import { Module } from '@nestjs/common';
import { CredentialsRepository } from '../auth/credentials.repository.js';
import { CompaniesRepository } from './companies.repository.js';
import { CompaniesService } from './companies.service.js';

@Module({
  providers: [CompaniesRepository, CompaniesService, CredentialsRepository],
  exports: [CompaniesService, CompaniesRepository, CredentialsRepository],
})
export class CompaniesModule {}
