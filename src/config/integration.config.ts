// Typed configuration of the push integration: processing and retries, API key lifetimes, the OAuth
// authorization server. Read once at start like app.config.ts.
import { type Env, int } from './env-int.js';

export interface PushConfig {
  /** Whether this process processes pushed documents (any number of replicas may). */
  worker: boolean;
  /** Retries after the first attempt; then the document is dead-lettered. */
  retryLimit: number;
  /** Seconds before the first retry; each further retry waits about twice as long (with jitter). */
  retryBaseSeconds: number;
  /**
   * The longest one attempt may take: a batch still running after this long is rolled back before it
   * commits (before its next document at the latest), and its documents count as failed and are retried.
   */
  attemptTimeoutSeconds: number;
  /**
   * How long a claimed document stays reserved without a heartbeat. The worker renews it every third of
   * this while the attempt runs, so a document held by a replica that died is taken again after at most
   * this long, and a long document is not taken away from a live one.
   */
  leaseSeconds: number;
  /** A document waiting for an earlier version of the same external_id looks again after this long. */
  deferSeconds: number;
  /** Jobs fetched per poll, and how many of them are processed at the same time. */
  batchSize: number;
  concurrency: number;
  /**
   * While pushes pour in and the process is saturated, the worker gives way to accepting them, for at
   * most this long before each batch (0: never). Processing is asynchronous anyway; a slow 202 makes
   * clients time out and push again.
   */
  maxYieldMs: number;
  /**
   * Requests per minute and push credential (API key, OAuth token): an ERP hands over a day's bank
   * statement in one burst, so push credentials get their own, much larger budget than REST tokens.
   */
  rateLimitPerMinute: number;
}

export interface ApiKeysConfig {
  lifetimeDays: number;
  /** How long a rotated key keeps working next to its successor. */
  rotationGraceHours: number;
  /** From this many days before expiry, responses to the key carry the Sunset and API-Key-Expires-At headers. */
  expiryWarningDays: number;
  /**
   * How long this process reuses a key it looked up (by the key's hash): a revocation or rotation
   * through this process applies at once, one made elsewhere (another replica, by hand in the
   * database) within this many seconds. 0: look the key up on every request.
   */
  cacheSeconds: number;
}

export interface OAuthConfig {
  codeLifetimeSeconds: number;
  accessTokenLifetimeSeconds: number;
  refreshTokenLifetimeSeconds: number;
}

export interface IntegrationConfig {
  push: PushConfig;
  apiKeys: ApiKeysConfig;
  oauth: OAuthConfig;
}

export function loadIntegrationConfig(env: Env): IntegrationConfig {
  return {
    push: {
      worker: env.PUSH_WORKER !== 'false',
      retryLimit: int(env, 'PUSH_RETRY_LIMIT', 3, 0, 20),
      retryBaseSeconds: int(env, 'PUSH_RETRY_BASE_SECONDS', 30, 1, 86_400),
      attemptTimeoutSeconds: int(env, 'PUSH_ATTEMPT_TIMEOUT_SECONDS', 120, 1, 3600),
      leaseSeconds: int(env, 'PUSH_LEASE_SECONDS', 15, 3, 600),
      deferSeconds: int(env, 'PUSH_DEFER_SECONDS', 2, 1, 3600),
      batchSize: int(env, 'PUSH_BATCH_SIZE', 50, 1, 1000),
      concurrency: int(env, 'PUSH_CONCURRENCY', 2, 1, 64),
      maxYieldMs: int(env, 'PUSH_MAX_YIELD_MS', 2000, 0, 60_000),
      rateLimitPerMinute: int(env, 'PUSH_RATE_LIMIT_PER_MINUTE', 120_000),
    },
    apiKeys: {
      lifetimeDays: int(env, 'API_KEY_LIFETIME_DAYS', 90, 1, 3650),
      rotationGraceHours: int(env, 'API_KEY_ROTATION_GRACE_HOURS', 24, 0, 24 * 90),
      expiryWarningDays: int(env, 'API_KEY_EXPIRY_WARNING_DAYS', 14, 0, 365),
      cacheSeconds: int(env, 'API_KEY_CACHE_SECONDS', 2, 0, 60),
    },
    oauth: {
      codeLifetimeSeconds: int(env, 'OAUTH_CODE_LIFETIME_SECONDS', 60, 1, 600),
      accessTokenLifetimeSeconds: int(env, 'OAUTH_ACCESS_TOKEN_LIFETIME_SECONDS', 3600, 1, 86_400),
      refreshTokenLifetimeSeconds: int(env, 'OAUTH_REFRESH_TOKEN_LIFETIME_SECONDS', 30 * 86_400, 60, 365 * 86_400),
    },
  };
}
