import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DATABASE_URL } from '../database/database-url.js';
import { APP_CONFIG, type AppConfig } from './app.config.js';

/** Makes the validated configuration (APP_CONFIG) and the database URL injectable everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    const providers = [
      { provide: APP_CONFIG, useValue: config },
      { provide: DATABASE_URL, useValue: databaseUrl },
    ];
    return { module: ConfigModule, providers, exports: [APP_CONFIG, DATABASE_URL] };
  }
}
