// TRUSTED_PROXIES in the notations Express (proxy-addr) accepts, checked at start so that a typo is a
// configuration error naming the variable, not a TypeError from inside Express.
import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isNetmask(mask: string): boolean {
  if (isIP(mask) !== 4) return false;
  const bits = mask.split('.').reduce((n, octet) => (n << 8) | Number(octet), 0) >>> 0;
  const inverted = ~bits >>> 0;
  return (inverted & (inverted + 1)) === 0; // ones followed by zeros only
}

function isProxy(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const parts = entry.split('/');
  if (parts.length > 2) return false;
  const [address, range] = parts;
  const family = isIP(address);
  if (family === 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isNetmask(range);
}

export function parseTrustedProxies(raw: string | undefined): string[] {
  const entries = (raw || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const wrong = entries.filter((entry) => !isProxy(entry));
  if (wrong.length > 0) {
    throw new ConfigError(
      `TRUSTED_PROXIES: ${wrong.map((w) => `"${w}"`).join(', ')} is not an IP address, a subnet (10.0.0.0/8, 10.0.0.0/255.0.0.0, fd00::/8) ` +
        'or one of loopback, linklocal, uniquelocal',
    );
  }
  return entries;
}
