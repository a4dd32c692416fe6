// Companies (tenants), their users and the credentials issued to them; registration of a new company.
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { CompaniesRepository } from './companies.repository.js';
import { CompaniesService } from './companies.service.js';
import { RegistrationsController } from './registrations.controller.js';

@Module({
  imports: [AuthModule],
  controllers: [RegistrationsController],
  providers: [CompaniesRepository, CompaniesService],
  exports: [CompaniesService, CompaniesRepository, AuthModule],
})
export class CompaniesModule {}
