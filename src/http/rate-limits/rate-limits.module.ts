// The rate-limit counters shared by all replicas through PostgreSQL (the failed-authentication limit and
// the RateLimitGuard use them; AuthModule re-exports this module).
import { Module } from '@nestjs/common';
import { RateLimitStore } from './rate-limit.store.js';

@Module({ providers: [RateLimitStore], exports: [RateLimitStore] })
export class RateLimitsModule {}
