// The SQL door for every feature: one Sql per application, over TypeORM's DataSource, and the optional
// read replica that read-only web pages route their statements to.
import { Global, Module } from '@nestjs/common';
import { ReadReplica } from './read-replica.js';
import { Sql } from './sql.js';

@Global()
@Module({ providers: [Sql, ReadReplica], exports: [Sql, ReadReplica] })
export class SqlModule {}
