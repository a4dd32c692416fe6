// The SQL door for every feature: one Sql per application, over TypeORM's DataSource.
import { Global, Module } from '@nestjs/common';
import { Sql } from './sql.js';

@Global()
@Module({ providers: [Sql], exports: [Sql] })
export class SqlModule {}
