// The hourly sweep of the rate-limit counters: the application's, not the CLI's (it needs the job queue).
import { Module } from '@nestjs/common';
import { RateLimitSweeper } from './rate-limit.sweeper.js';
import { RateLimitsModule } from './rate-limits.module.js';

@Module({ imports: [RateLimitsModule], providers: [RateLimitSweeper] })
export class RateLimitSweepModule {}
