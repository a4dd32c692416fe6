// An integer setting from the environment, within bounds; absent or empty gives the fallback.
import { ConfigError } from './config-error.js';

export type Env = Record<string, string | undefined>;

export function int(env: Env, name: string, fallback: number, min = 1, max = 1_000_000_000): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
