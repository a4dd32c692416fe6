// Credentials are random, shown once, and stored as SHA-256 (tokens, keys) or scrypt (passwords).
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

export type SecretKind = 'token' | 'key';
const PREFIX: Record<SecretKind, string> = { token: 'rt_', key: 'rk_' };

/** 256 random bits, base64url, with a prefix that tells a secret scanner what it is. */
export function newSecret(kind: SecretKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

const SCRYPT = { N: 16384, r: 8, p: 1 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/** At least 12 characters with upper case, lower case, a digit and a special character. */
export function passwordWeaknesses(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 12) problems.push('at least 12 characters');
  if (!/[A-Z]/.test(password)) problems.push('an upper-case letter');
  if (!/[a-z]/.test(password)) problems.push('a lower-case letter');
  if (!/\d/.test(password)) problems.push('a digit');
  if (!/[^A-Za-z0-9]/.test(password)) problems.push('a special character');
  return problems;
}
