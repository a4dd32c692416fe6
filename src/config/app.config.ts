// Typed configuration, read once from the environment at start. Only this folder reads process.env.
import { resolve } from 'node:path';
import { type DatabaseConfig, loadDatabaseConfig } from './database.config.js';
import { type DocumentsConfig, loadDocumentsConfig } from './documents.config.js';
import { type ErpConfig, loadErpConfig } from './erp.config.js';
import { loadMailConfig, type MailConfig } from './mail.config.js';
import { loadShippingConfig, type ShippingConfig } from './shipping.config.js';
import { type IntegrationConfig, loadIntegrationConfig } from './integration.config.js';
import { parseTrustedProxies } from './trusted-proxies.js';
import { ConfigError } from './config-error.js';
import { type Env, int } from './env-int.js';

export type AppEnv = 'development' | 'test' | 'production';

export interface AppConfig {
  env: AppEnv;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** Undefined means: start an embedded PostgreSQL under dataDir. */
  databaseUrl?: string;
  /** Pool size and the waits it bounds (src/config/database.config.ts). */
  database: DatabaseConfig;
  embeddedPgPort: number;
  /** 32-byte key (base64 or hex) for AES-256-GCM encryption of stored secrets. Sensitive. */
  secretsKey?: string;
  logLevel: string;
  tls?: { certFile: string; keyFile: string };
  trustedProxies: string[];
  /** Requests per credential and minute; failed authentications per client address and minute. */
  rateLimit: { perMinute: number; failedAuthPerMinute: number };
  /** How long this process reuses an API token it looked up (0: on every request); see CredentialCache. */
  tokenCacheSeconds: number;
  maxBodyKb: number;
  /** How long an idle keep-alive connection stays open (HTTP_KEEP_ALIVE_SECONDS): longer than any proxy's in front. */
  httpKeepAliveSeconds: number;
  defaultTimeZone: string;
  documents: DocumentsConfig;
  /** Whether this process runs the queue's cron scheduler and maintenance (any number of replicas may). */
  jobs: { schedule: boolean; supervise: boolean; maintenanceIntervalSeconds: number };
  /** Push documents, API keys, OAuth (src/config/integration.config.ts). */
  integration: IntegrationConfig;
  /** The ERP pull: SSRF guard, timeouts, retries (src/config/erp.config.ts). */
  erp: ErpConfig;
  /** Outgoing e-mail: SMTP, the development outbox, or none (src/config/mail.config.ts). */
  mail: MailConfig;
  /** Delivery jobs and the postal provider (src/config/shipping.config.ts). */
  shipping: ShippingConfig;
  /** The web app's sessions end after this many minutes without a request (WEB_SESSION_IDLE_MINUTES, default 8 h). */
  webSessionIdleMinutes: number;
}

export { ConfigError };

function appEnv(raw: string | undefined): AppEnv {
  const value = raw ?? 'development';
  if (value === 'development' || value === 'test' || value === 'production') return value;
  throw new ConfigError(`APP_ENV must be development, test or production, got "${value}"`);
}

export function loadConfig(env: Env = process.env): AppConfig {
  const mode = appEnv(env.APP_ENV);
  const port = int(env, 'PORT', 3000, 0);
  const certFile = env.TLS_CERT_FILE;
  const keyFile = env.TLS_KEY_FILE;
  if (Boolean(certFile) !== Boolean(keyFile)) {
    throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  const dataDir = resolve(env.DATA_DIR || './data');
  const config: AppConfig = {
    env: mode,
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl: (env.PUBLIC_URL || `http${certFile ? 's' : ''}://localhost:${port}`).replace(/\/+$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    database: loadDatabaseConfig(env),
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 54329),
    secretsKey: env.SECRETS_KEY || undefined,
    logLevel: env.LOG_LEVEL || (mode === 'test' ? 'silent' : 'info'),
    tls: certFile && keyFile ? { certFile, keyFile } : undefined,
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    rateLimit: { perMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 600), failedAuthPerMinute: int(env, 'FAILED_AUTH_PER_MINUTE', 30) },
    tokenCacheSeconds: int(env, 'API_TOKEN_CACHE_SECONDS', 2, 0, 60),
    maxBodyKb: int(env, 'MAX_BODY_KB', 1024),
    // Longer than the idle timeout of a proxy in front (nginx's upstream keepalive_timeout: 60 s by default;
    // AWS's ALB: 60 s). The proxy, not the service, must close an idle connection: a request the proxy sends
    // on a connection the service is closing at that moment fails as a 502 (Node's own default is 5 s).
    httpKeepAliveSeconds: int(env, 'HTTP_KEEP_ALIVE_SECONDS', 65, 1, 3600),
    defaultTimeZone: env.DEFAULT_TIME_ZONE || 'Europe/Berlin',
    documents: loadDocumentsConfig(env, dataDir),
    jobs: {
      schedule: env.JOBS_SCHEDULE !== 'false',
      supervise: env.JOBS_SUPERVISE !== 'false',
      // How often expired jobs (their process died) are failed over to a retry; pg-boss's default.
      maintenanceIntervalSeconds: int(env, 'JOBS_MAINTENANCE_SECONDS', 120),
    },
    integration: loadIntegrationConfig(env),
    erp: loadErpConfig(env),
    mail: loadMailConfig(env, dataDir, mode === 'production'),
    shipping: loadShippingConfig(env, dataDir),
    webSessionIdleMinutes: int(env, 'WEB_SESSION_IDLE_MINUTES', 480, 1),
  };
  assertProductionReady(config);
  return config;
}

/** The 32-byte AES-256 key in SECRETS_KEY (hex or base64), or undefined when it is not one. */
export function secretsKeyBytes(text: string): Buffer | undefined {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === 32 ? key : undefined;
}

/** Production refuses to start without a real database and a secrets key, saying what is missing. */
function assertProductionReady(config: AppConfig): void {
  if (config.env !== 'production') return;
  const missing: string[] = [];
  if (!config.databaseUrl) missing.push('DATABASE_URL (production does not use the embedded database)');
  if (!config.secretsKey) missing.push('SECRETS_KEY (32 bytes, base64 or hex, for encrypting stored secrets)');
  else if (!secretsKeyBytes(config.secretsKey)) missing.push('a SECRETS_KEY of exactly 32 bytes (64 hex digits or 44 base64 characters)');
  if (!config.publicUrl.startsWith('https://')) missing.push('PUBLIC_URL with https:// (the address clients use)');
  if (missing.length > 0) {
    throw new ConfigError(`Refusing to start in production. Missing: ${missing.join('; ')}`);
  }
}

export const APP_CONFIG = Symbol('APP_CONFIG');
