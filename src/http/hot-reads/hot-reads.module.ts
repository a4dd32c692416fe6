import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module.js';
import { HotReads } from './hot-reads.js';

@Module({ imports: [AuthModule], providers: [HotReads], exports: [HotReads] })
export class HotReadsModule {}
