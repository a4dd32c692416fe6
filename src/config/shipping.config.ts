// Typed configuration of shipping (src/shipping): delivery jobs and the postal provider.
import { join, resolve } from 'node:path';
import { ConfigError } from './config-error.js';

export interface ShippingConfig {
  /** Attempts after the first one for a temporary failure (SMTP 4xx, timeouts). */
  retryLimit: number;
  /** Seconds before the first retry; pg-boss doubles it for each further one (with jitter). */
  retryDelaySeconds: number;
  /** How often an idle delivery worker looks for jobs. */
  pollingIntervalSeconds: number;
  /** Whether this process delivers (any number of replicas may); enqueuing works either way. */
  workers: boolean;
  /** Seconds an attempt may run before its job counts as lost (the process died) and is retried. */
  jobExpireSeconds: number;
  /**
   * How often a delivering process looks for deliveries left without an outcome (the job dead-lettered
   * or lost while its channel still waits), and how long such a channel must have been quiet.
   */
  sweepSeconds: number;
  /**
   * The postal provider by its name in src/shipping/postal/postal-providers.ts; `print_batch` (the default)
   * collects letters under printBatchDir for companies that print themselves.
   */
  postalProvider: string;
  /**
   * Settings of the chosen provider, from the variables POSTAL_PROVIDER_<NAME> (e.g. POSTAL_PROVIDER_URL
   * and POSTAL_PROVIDER_API_KEY → `url`, `api_key`). Sensitive: may hold credentials, never logged.
   */
  postalProviderOptions: Record<string, string>;
  printBatchDir: string;
  /** Seconds after the last letter until a print batch's merged PDF is rebuilt (the manifest is written at once). */
  printBatchRefreshSeconds: number;
}

type Env = Record<string, string | undefined>;

function number(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return value;
}

export function loadShippingConfig(env: Env, dataDir: string): ShippingConfig {
  const provider = env.POSTAL_PROVIDER || 'print_batch';
  // Whether a provider of that name exists is checked where the providers are known (src/shipping).
  if (!/^[a-z][a-z0-9_]*$/.test(provider)) throw new ConfigError(`POSTAL_PROVIDER must be a provider name such as print_batch, got "${provider}"`);
  const options = Object.entries(env)
    .filter((entry): entry is [string, string] => entry[0].startsWith('POSTAL_PROVIDER_') && entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => [name.slice('POSTAL_PROVIDER_'.length).toLowerCase(), value]);
  return {
    retryLimit: Math.round(number(env, 'SHIPPING_RETRY_LIMIT', 3, 0, 10)),
    retryDelaySeconds: Math.round(number(env, 'SHIPPING_RETRY_DELAY_SECONDS', 60, 1, 86_400)),
    pollingIntervalSeconds: number(env, 'SHIPPING_POLL_SECONDS', 2, 0.5, 600),
    workers: env.SHIPPING_WORKERS !== 'false',
    jobExpireSeconds: Math.round(number(env, 'SHIPPING_JOB_EXPIRE_SECONDS', 300, 1, 86_400)),
    sweepSeconds: number(env, 'SHIPPING_SWEEP_SECONDS', 60, 0.5, 86_400),
    postalProvider: provider,
    postalProviderOptions: Object.fromEntries(options),
    printBatchDir: resolve(env.PRINT_BATCH_DIR || join(resolve(dataDir), 'print-batches')),
    printBatchRefreshSeconds: number(env, 'PRINT_BATCH_REFRESH_SECONDS', 30, 0, 3600),
  };
}
