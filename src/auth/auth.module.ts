// Credentials and who may call what: the token strategy, the global guard, registration and GET /.
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { CompaniesModule } from '../companies/companies.module.js';
import { CredentialsRepository } from './credentials.repository.js';
import { FailedAuthLimiter } from './failed-auth.limiter.js';
import { RegistrationsController } from './registrations.controller.js';
import { RootController } from './root.controller.js';
import { TokenStrategy } from './token.strategy.js';

@Module({
  imports: [PassportModule, CompaniesModule],
  controllers: [RootController, RegistrationsController],
  providers: [TokenStrategy, FailedAuthLimiter],
  exports: [FailedAuthLimiter],
})
export class AuthModule {}
