// The rate-limit counters shared by all replicas through PostgreSQL (the failed-authentication limit and
// the request quota use them; AuthModule re-exports this module).
import { Module } from '@nestjs/common';
import { RateLimitStore } from './rate-limit.store.js';
import { RequestQuota } from './request-quota.js';

@Module({ providers: [RateLimitStore, RequestQuota], exports: [RateLimitStore, RequestQuota] })
export class RateLimitsModule {}
