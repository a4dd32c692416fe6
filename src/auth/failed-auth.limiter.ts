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
//
// The counts are shared by all replicas (rows of rate_limit_counters, src/http/rate-limits): a failure is one
// statement that adds to both keys and returns their counts. A random credential's check before its lookup
// runs on every request, so it reads no database: it knows the identifiers over budget from the failures
// this replica recorded. An attack spread over the replicas is refused by each from its first failure
// recorded past the budget (the shared count), so the budget holds for guessing; a right random
// credential whose identifier went over budget through another replica's failures only may still pass
// here, which matters to no one (256 bits that no attacker guesses). A password is guessable, so its check
// reads the shared counts (one statement per attempt; a sign-in is rare and costs a password hash anyway).
import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app.config.js';
import { AppError } from '../common/errors.js';
import { type Counter, RateLimitStore } from '../http/rate-limits/rate-limit.store.js';

const KNOWN_GOOD_SECONDS = 24 * 60 * 60;
const WINDOW_SECONDS = 60;
/** How often the map of identifiers over budget drops the windows that ended. */
const PURGE_EVERY_MS = 60_000;
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

/** The stored keys: a failure counts against `failed:address:…` and `failed:identifier:…`. */
const addressKey = (address: string) => `failed:address:${address}`;
const identifierKey = (identifier: string) => `failed:identifier:${identifier}`;
const knownGoodKey = (address: string, identifier: string) => `signed-in:${address}|${identifier}`;

interface Window {
  points: number;
  /** Local clock (from the database's time left). */
  endsAt: number;
}

@Injectable()
export class FailedAuthLimiter {
  private readonly limit: number;
  /** Identifiers at or over their budget, as this replica's recorded failures returned them. */
  private readonly overBudget = new Map<string, Window>();
  private nextPurge = Date.now() + PURGE_EVERY_MS;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly store: RateLimitStore,
  ) {
    this.limit = config.rateLimit.failedAuthPerMinute;
  }

  /**
   * Whether any identifier is over its budget here: when none is, a request need not hash its credential's
   * identifier to be checked (a SHA-256 per request saved; the lookup hashes the whole secret anyway).
   */
  get anyOverBudget(): boolean {
    return this.overBudget.size > 0;
  }

  /** Before a random credential is looked up: 429 while its identifier is over its budget (no database read). */
  assertIdentifierOpen(identifier: string | null, res?: Response): Promise<void> {
    const known = identifier ? this.overBudget.get(identifier) : undefined;
    const now = Date.now();
    if (known && known.endsAt > now)
      return Promise.reject(this.limited(known.endsAt - now, 'Too many failed authentications with this credential', res));
    return Promise.resolve();
  }

  /** Before a password is checked: 429 for an identifier under attack, or from a blocked address it never signed in from. */
  async assertPasswordAttemptAllowed(address: string, identifier: string, res?: Response): Promise<void> {
    const counters = await this.store.read([identifierKey(identifier), addressKey(address), knownGoodKey(address, identifier)]);
    const find = (key: string) => counters.find((counter) => counter.key === key);
    const byIdentifier = find(identifierKey(identifier));
    if (this.over(byIdentifier)) this.refuse(byIdentifier!.msLeft, 'Too many failed authentications with this credential', res);
    const byAddress = find(addressKey(address));
    if (this.over(byAddress) && !find(knownGoodKey(address, identifier))) {
      this.refuse(byAddress!.msLeft, 'Too many failed authentications from this address', res);
    }
  }

  /**
   * Counts a refused credential against its address and identifier (one statement). Returns the 429 to
   * answer instead of the 401 when the address or the identifier is now over its budget, else null.
   */
  async recordFailure(address: string, identifier: string | null, res?: Response): Promise<RateLimited | null> {
    const keys = identifier ? [addressKey(address), identifierKey(identifier)] : [addressKey(address)];
    const counters = await this.store.add(keys, 1, WINDOW_SECONDS);
    if (identifier)
      this.remember(
        identifier,
        counters.find((counter) => counter.key === identifierKey(identifier)),
      );
    const blocked = counters.find((counter) => counter.points > this.limit);
    return blocked ? this.limited(blocked.msLeft, 'Too many failed authentications from this address', res) : null;
  }

  /** A password that was right: its identifier may sign in from this address even while the address is blocked. */
  async recordSuccess(address: string, identifier: string): Promise<void> {
    await this.store.set(knownGoodKey(address, identifier), KNOWN_GOOD_SECONDS);
  }

  private over(counter: Counter | undefined): boolean {
    return counter !== undefined && counter.points >= this.limit;
  }

  private remember(identifier: string, counter: Counter | undefined): void {
    const now = Date.now();
    if (now >= this.nextPurge) {
      this.nextPurge = now + PURGE_EVERY_MS;
      for (const [key, window] of this.overBudget) if (window.endsAt <= now) this.overBudget.delete(key);
    }
    if (this.over(counter)) this.overBudget.set(identifier, { points: counter!.points, endsAt: now + counter!.msLeft });
  }

  private limited(msLeft: number, message: string, res?: Response): RateLimited {
    const seconds = Math.max(1, Math.ceil(msLeft / 1000));
    res?.setHeader('Retry-After', String(seconds));
    return new RateLimited(`${message}: retry after the time in Retry-After`, seconds);
  }

  private refuse(msLeft: number, message: string, res?: Response): never {
    throw this.limited(msLeft, message, res);
  }
}
