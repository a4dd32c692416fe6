// Slows down credential guessing without letting an attacker lock others out. Failed authentications
// count twice: per client address and per credential identifier (a hash of the credential's first
// characters, a client id or an e-mail). The scheme is rate-limiter-flexible's "login endpoint
// protection" pattern, adapted to ERP systems that share one NAT address:
// - an identifier over its budget is refused (429) before any lookup: that credential is under attack;
// - an address over its budget gets 429 instead of 401 for every further wrong credential, so guessing
//   from it stops being answered; a valid random credential (256-bit tokens, keys, client secrets, which
//   no one can guess) still passes, so one misbehaving client cannot lock out its neighbours;
// - a password is guessable, so a blocked address may try one only for an identifier that signed in
//   from that address within the last day.
import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';

const KNOWN_GOOD_SECONDS = 24 * 60 * 60;
/** Characters of a random secret that identify it to the limiter (hashed; never stored as they are). */
const SECRET_PREFIX = 12;

/** The identifier of a presented credential: `scheme` plus a hash of its first characters (or all of a name). */
export function credentialIdentifier(scheme: string, credential: string, whole = false): string {
  const part = whole ? credential.toLowerCase() : credential.slice(0, SECRET_PREFIX);
  return `${scheme}:${createHash('sha256').update(part, 'utf8').digest('base64url').slice(0, 22)}`;
}

export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

@Injectable()
export class FailedAuthLimiter {
  private readonly byAddress: RateLimiterMemory;
  private readonly byIdentifier: RateLimiterMemory;
  private readonly knownGood: RateLimiterMemory;
  private readonly limit: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limit = config.rateLimit.failedAuthPerMinute;
    this.byAddress = new RateLimiterMemory({ points: this.limit, duration: 60 });
    this.byIdentifier = new RateLimiterMemory({ points: this.limit, duration: 60 });
    this.knownGood = new RateLimiterMemory({ points: 1, duration: KNOWN_GOOD_SECONDS });
  }

  /** Before a random credential is looked up: 429 while its identifier is over its budget. */
  async assertIdentifierOpen(identifier: string | null, res?: Response): Promise<void> {
    if (!identifier) return;
    const state = await this.byIdentifier.get(identifier);
    if (this.over(state)) this.refuse(state!, 'Too many failed authentications with this credential', res);
  }

  /** Before a password is checked: 429 for an identifier under attack, or from a blocked address it never signed in from. */
  async assertPasswordAttemptAllowed(address: string, identifier: string, res?: Response): Promise<void> {
    await this.assertIdentifierOpen(identifier, res);
    const state = await this.byAddress.get(address);
    if (this.over(state) && !(await this.knownGood.get(`${address}|${identifier}`))) {
      this.refuse(state!, 'Too many failed authentications from this address', res);
    }
  }

  /**
   * Counts a refused credential against its address and identifier. Returns the 429 to answer instead of
   * the 401 when the address or the identifier is now over its budget, else null.
   */
  async recordFailure(address: string, identifier: string | null, res?: Response): Promise<RateLimited | null> {
    const [byAddress, byIdentifier] = await Promise.all([
      this.byAddress.penalty(address, 1),
      identifier ? this.byIdentifier.penalty(identifier, 1) : Promise.resolve(null),
    ]);
    const blocked = [byAddress, byIdentifier].find((state) => state && state.consumedPoints > this.limit);
    return blocked ? this.limited(blocked, 'Too many failed authentications from this address', res) : null;
  }

  /** A password that was right: its identifier may sign in from this address even while the address is blocked. */
  async recordSuccess(address: string, identifier: string): Promise<void> {
    await this.knownGood.set(`${address}|${identifier}`, 1, KNOWN_GOOD_SECONDS);
  }

  private over(state: RateLimiterRes | null): boolean {
    return state !== null && state.consumedPoints >= this.limit;
  }

  private limited(state: RateLimiterRes, message: string, res?: Response): RateLimited {
    const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    res?.setHeader('Retry-After', String(seconds));
    return new RateLimited(`${message}: retry after the time in Retry-After`, seconds);
  }

  private refuse(state: RateLimiterRes, message: string, res?: Response): never {
    throw this.limited(state, message, res);
  }
}
