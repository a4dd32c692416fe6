// What state an API key is in at an instant: the one rule shared by authentication and listings.
import type { ApiKeyRecord } from './api-keys.repository.js';

export type ApiKeyStatus = 'active' | 'expiring' | 'rotated' | 'expired' | 'revoked';

export function apiKeyStatus(key: ApiKeyRecord, now: Date, warningDays: number): ApiKeyStatus {
  if (key.revokedAt && key.revokedAt <= now) return 'revoked';
  if (key.expiresAt <= now) return 'expired';
  if (key.replacedBy) return 'rotated';
  return key.expiresAt.getTime() - now.getTime() <= warningDays * 86_400_000 ? 'expiring' : 'active';
}
