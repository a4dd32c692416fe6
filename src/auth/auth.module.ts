// Credentials and who may call what: the token strategy, the credential lookups, the failed-authentication
// limit, GET /.
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { RateLimitsModule } from '../http/rate-limits/rate-limits.module.js';
import { CredentialsRepository } from './credentials.repository.js';
import { FailedAuthLimiter } from './failed-auth.limiter.js';
import { RootController } from './root.controller.js';
import { TokenStrategy } from './token.strategy.js';

@Module({
  imports: [PassportModule, RateLimitsModule],
  controllers: [RootController],
  providers: [TokenStrategy, CredentialsRepository, FailedAuthLimiter],
  // The rate-limit store and the request quota are the global RateLimitGuard's too (AppModule imports this module).
  exports: [CredentialsRepository, FailedAuthLimiter, TokenStrategy, RateLimitsModule],
})
export class AuthModule {}
