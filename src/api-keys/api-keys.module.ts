// API keys: management under /api/v1/api_keys and the `ApiKey` passport strategy.
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeyStrategy } from './api-key.strategy.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({
  imports: [PassportModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyStrategy],
  // The web app's key pages use the same service (and its credential cache, which a revocation clears).
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
