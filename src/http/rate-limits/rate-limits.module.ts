// The rate-limit counters shared by all replicas (through PostgreSQL) and their hourly sweep.
import { Module } from '@nestjs/common';
import { RateLimitStore } from './rate-limit.store.js';
import { RateLimitSweeper } from './rate-limit.sweeper.js';

@Module({ providers: [RateLimitStore, RateLimitSweeper], exports: [RateLimitStore] })
export class RateLimitsModule {}
