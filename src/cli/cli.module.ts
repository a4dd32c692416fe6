// What the operator CLI needs: configuration, the database (and its SQL door), companies and the account links
// (invitations, sent by e-mail). No HTTP, no workers.
import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CompaniesModule } from '../companies/companies.module.js';
import type { AppConfig } from '../config/app.config.js';
import { ConfigModule } from '../config/config.module.js';
import { dataSourceOptions } from '../database/data-source.js';
import { SqlModule } from '../database/sql/sql.module.js';
import { AccountCoreModule } from '../web/account/account-core.module.js';

@Module({})
export class CliModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config, databaseUrl),
        TypeOrmModule.forRoot(dataSourceOptions(databaseUrl, config.database)),
        SqlModule,
        CompaniesModule,
        AccountCoreModule,
      ],
    };
  }
}
