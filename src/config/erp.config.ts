// Typed configuration of the ERP pull (src/erp-pull, src/connectors). Read once at start like app.config.ts.
import { ConfigError } from './config-error.js';
import { type Env, int } from './env-int.js';

export interface ErpConfig {
  /** Base URLs resolving to loopback, link-local or private addresses are refused unless this is on (SSRF). */
  allowPrivateNetworks: boolean;
  /** Whether this process runs scheduled and requested pulls (any number of replicas may). */
  worker: boolean;
  /** Per OData request: connecting, waiting for the response headers, and for the whole body. */
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Per OData request attempt, all of it: a server trickling bytes slowly enough to dodge bodyTimeoutMs still ends. */
  requestTimeoutMs: number;
  /** Retries after the first attempt on network errors, 429 and 5xx. */
  retries: number;
  /** The first retry waits between half and all of this; each further one twice as long. */
  retryBaseDelayMs: number;
  /** A Retry-After longer than this ends the run instead (the next scheduled run tries again). */
  maxRetryAfterMs: number;
  /** A running pull whose heartbeat is older than this counts as interrupted and is resumed. */
  staleAfterSeconds: number;
  /**
   * A scheduled run becomes a full one (every customer and open item, then a reconciliation of the open
   * invoices the ERP no longer lists as open) when the last reconciliation is this many days old; 0: only
   * on request (POST …/pulls with mode full).
   */
  reconcileEveryDays: number;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export function loadErpConfig(env: Env): ErpConfig {
  return {
    allowPrivateNetworks: bool(env, 'ERP_ALLOW_PRIVATE_NETWORKS', false),
    worker: bool(env, 'ERP_PULL_WORKER', true),
    connectTimeoutMs: int(env, 'ERP_CONNECT_TIMEOUT_MS', 10_000, 100, 120_000),
    headersTimeoutMs: int(env, 'ERP_HEADERS_TIMEOUT_MS', 60_000, 100, 600_000),
    bodyTimeoutMs: int(env, 'ERP_BODY_TIMEOUT_MS', 120_000, 100, 600_000),
    requestTimeoutMs: int(env, 'ERP_REQUEST_TIMEOUT_MS', 300_000, 100, 3_600_000),
    retries: int(env, 'ERP_RETRIES', 3, 0, 10),
    retryBaseDelayMs: int(env, 'ERP_RETRY_BASE_DELAY_MS', 1000, 1, 60_000),
    maxRetryAfterMs: int(env, 'ERP_MAX_RETRY_AFTER_MS', 120_000, 0, 3_600_000),
    staleAfterSeconds: int(env, 'ERP_PULL_STALE_AFTER_SECONDS', 180, 10, 86_400),
    reconcileEveryDays: int(env, 'ERP_RECONCILE_EVERY_DAYS', 7, 0, 366),
  };
}
