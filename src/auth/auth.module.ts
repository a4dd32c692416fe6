// Credentials and who may call what: the token strategy, the credential lookups, the failed-authentication
// limit, GET /.
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { CredentialsRepository } from './credentials.repository.js';
import { FailedAuthLimiter } from './failed-auth.limiter.js';
import { RootController } from './root.controller.js';
import { TokenStrategy } from './token.strategy.js';

@Module({
  imports: [PassportModule],
  controllers: [RootController],
  providers: [TokenStrategy, CredentialsRepository, FailedAuthLimiter],
  exports: [CredentialsRepository, FailedAuthLimiter],
})
export class AuthModule {}
