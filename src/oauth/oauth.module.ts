// The OAuth 2.0 authorization server for push clients: applications, authorize and token endpoints,
// and the bearer strategy that accepts its access tokens on /v2.
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AuthModule } from '../auth/auth.module.js';
import { BearerTokenStrategy } from './bearer.strategy.js';
import { OAuthApplicationsController } from './oauth-applications.controller.js';
import { OAuthApplicationsRepository } from './oauth-applications.repository.js';
import { OAuthApplicationsService } from './oauth-applications.service.js';
import { OAuthCodesRepository } from './oauth-codes.repository.js';
import { OAuthTokensRepository } from './oauth-tokens.repository.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthModel } from './oauth.model.js';
import { OAuthService } from './oauth.service.js';

@Module({
  imports: [PassportModule, AuthModule],
  controllers: [OAuthApplicationsController, OAuthController],
  providers: [
    OAuthApplicationsRepository,
    OAuthCodesRepository,
    OAuthTokensRepository,
    OAuthModel,
    OAuthService,
    OAuthApplicationsService,
    BearerTokenStrategy,
  ],
  exports: [OAuthApplicationsService],
})
export class OAuthModule {}
