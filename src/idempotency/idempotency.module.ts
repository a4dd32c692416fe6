// Idempotency keys for POST requests, used by any controller through @Idempotent(), and their sweep.
import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencySweeper } from './idempotency-sweeper.js';

@Global()
@Module({
  providers: [IdempotencyRepository, IdempotencyInterceptor, IdempotencySweeper],
  exports: [IdempotencyRepository, IdempotencyInterceptor],
})
export class IdempotencyModule {}
