// The secret of an account link (password reset, invitation): 256 random bits in the URL, of which only
// the SHA-256 is stored (as API tokens are, src/auth/secrets.ts).
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../auth/secrets.js';

export const RESET_LINK_HOURS = 1;
export const INVITATION_LINK_DAYS = 7;

/** base64url of 32 random bytes: 43 characters. Anything else in a link's place is no token. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function newLinkToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSecret(token) };
}

/** The stored hash of a token from a URL, or undefined when the text cannot be a token. */
export function linkTokenHash(text: string | undefined): Buffer | undefined {
  return typeof text === 'string' && TOKEN.test(text) ? hashSecret(text) : undefined;
}
