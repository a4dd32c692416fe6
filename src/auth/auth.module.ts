// Credentials and who may call what: the token strategy, the credential lookups, GET /.
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { CredentialsRepository } from './credentials.repository.js';
import { RootController } from './root.controller.js';
import { TokenStrategy } from './token.strategy.js';

@Module({
  imports: [PassportModule],
  controllers: [RootController],
  providers: [TokenStrategy, CredentialsRepository],
  exports: [CredentialsRepository],
})
export class AuthModule {}
