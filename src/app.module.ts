import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from './auth/auth.module.js';
import { CredentialGuard } from './auth/credential.guard.js';
import { FailedAuthLimiter } from './auth/failed-auth.limiter.js';
import { CompaniesModule } from './companies/companies.module.js';
import type { AppConfig } from './config/app.config.js';
import { ConfigModule } from './config/config.module.js';
import { ContactsModule } from './contacts/contacts.module.js';
import { CustomersModule } from './customers/customers.module.js';
import { ProblemFilter } from './common/problem.filter.js';
import { RateLimitGuard } from './common/rate-limit.guard.js';
import { dataSourceOptions } from './database/data-source.js';
import { DocumentsModule } from './documents/documents.module.js';
import { HealthModule } from './health/health.module.js';
import { InvoicesModule } from './invoices/invoices.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, databaseUrl),
        TypeOrmModule.forRoot(dataSourceOptions(databaseUrl)),
        DocumentsModule.forConfig(config.documents),
        HealthModule,
        JobsModule,
        IdempotencyModule,
        CompaniesModule,
        AuthModule,
        CustomersModule,
        ContactsModule,
        InvoicesModule,
      ],
      providers: [
        FailedAuthLimiter,
        { provide: APP_FILTER, useClass: ProblemFilter },
        // Order matters: the credential is known before the rate limit counts it.
        { provide: APP_GUARD, useClass: CredentialGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
      ],
    };
  }
}
