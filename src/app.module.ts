import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from './auth/auth.module.js';
import { CredentialGuard } from './auth/credential.guard.js';
import { CompaniesModule } from './companies/companies.module.js';
import type { AppConfig } from './config/app.config.js';
import { ConfigModule } from './config/config.module.js';
import { ContactsModule } from './contacts/contacts.module.js';
import { CustomersModule } from './customers/customers.module.js';
import { MultipartGuard } from './common/multipart.guard.js';
import { RateLimitGuard } from './http/rate-limit.guard.js';
import { HotReadsModule } from './http/hot-reads/hot-reads.module.js';
import { RateLimitSweepModule } from './http/rate-limits/rate-limit-sweep.module.js';
import { dataSourceOptions } from './database/data-source.js';
import { SqlModule } from './database/sql/sql.module.js';
import { DocumentsModule } from './documents/documents.module.js';
import { PendingDocumentsModule } from './documents/pending-documents.module.js';
import { DunningModule } from './dunning/dunning.module.js';
import { ErpPullModule } from './erp-pull/erp-pull.module.js';
import { HealthModule } from './health/health.module.js';
import { InvoicesModule } from './invoices/invoices.module.js';
import { ShippingModule } from './shipping/shipping.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';
import { ApiKeysModule } from './api-keys/api-keys.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { PushModule } from './push/push.module.js';
import { WebModule } from './web/web.module.js';
import { WebErrorFilter } from './web/errors/web-error.filter.js';
import { DunningWebModule } from './web/dunning/dunning-web.module.js';
import { ExceptionsWebModule } from './web/exceptions/exceptions-web.module.js';
import { IntegrationsKeysModule } from './web/integrations-keys/integrations-keys.module.js';
import { SettingsWebModule } from './web/settings/settings-web.module.js';
import { ErpWebModule } from './web/erp/erp-web.module.js';

export interface AppModuleOptions {
  /** Wire every module but never connect to the database: for building the OpenAPI document. */
  openApiOnly?: boolean;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, databaseUrl: string, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, databaseUrl),
        TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, config.database), manualInitialization: options.openApiOnly === true }),
        SqlModule,
        DocumentsModule.forConfig(config.documents),
        PendingDocumentsModule,
        HealthModule,
        JobsModule,
        IdempotencyModule,
        RateLimitSweepModule,
        HotReadsModule,
        CompaniesModule,
        AuthModule,
        CustomersModule,
        ContactsModule,
        InvoicesModule,
        ShippingModule,
        DunningModule,
        ApiKeysModule,
        OAuthModule,
        PushModule,
        ErpPullModule,
        WebModule,
        DunningWebModule,
        ExceptionsWebModule,
        IntegrationsKeysModule,
        SettingsWebModule,
        ErpWebModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: WebErrorFilter },
        // Order matters: the credential is known before the rate limit counts it.
        { provide: APP_GUARD, useClass: CredentialGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: MultipartGuard },
      ],
    };
  }
}
