// The owners' pages for the push API's credentials (/integrations/api-keys, /integrations/oauth-apps),
// over the same services as /api/v1/api_keys and /api/v1/oauth_applications.
import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../../api-keys/api-keys.module.js';
import { OAuthModule } from '../../oauth/oauth.module.js';
import { WebModule } from '../web.module.js';
import { ApiKeysWebController } from './api-keys-web.controller.js';
import { KeyPages } from './key-pages.js';
import { OAuthAppsWebController } from './oauth-apps-web.controller.js';

@Module({
  imports: [WebModule, ApiKeysModule, OAuthModule],
  controllers: [ApiKeysWebController, OAuthAppsWebController],
  providers: [KeyPages],
})
export class IntegrationsKeysModule {}
