// A short-lived in-process cache of credential lookups (API keys, API tokens), by the secret's hash
// (the secret itself is never kept): an ERP or a client authenticates with one credential thousands of
// times a second. Only found credentials are cached, with their record: whether a key is expired is
// decided at each request from the cached expiry. A revocation or rotation through this process forgets
// the credential at once; one made elsewhere (another replica, by hand) applies after at most `ttlMs`.
import { hashSecret } from './secrets.js';

/** Bounds the memory: a flood of different valid keys just clears the cache. */
const MAX_ENTRIES = 10_000;

/**
 * How far the caches' clock runs ahead of the wall clock: always 0 in the service. Tests move it on
 * (advanceCredentialCacheClock) to see a change made in the database without sleeping out the cache time.
 */
let clockOffsetMs = 0;

/** Moves the clock of every credential cache of this process forward: entries older than their ttl then are. */
export function advanceCredentialCacheClock(ms: number): void {
  clockOffsetMs += ms;
}

interface Entry<T> {
  lookup: Promise<T | undefined>;
  until: number;
}

export class CredentialCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly load: (secret: string) => Promise<T | undefined>,
    private readonly ttlMs: number,
    /** The credential's id, for forget(). */
    private readonly idOf: (match: T) => string,
  ) {}

  async find(secret: string): Promise<T | undefined> {
    if (this.ttlMs <= 0) return this.load(secret);
    const hash = hashSecret(secret).toString('base64');
    const now = Date.now() + clockOffsetMs;
    const cached = this.entries.get(hash);
    if (cached && cached.until > now) return cached.lookup;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    // Concurrent requests with the same key share one lookup.
    const lookup = this.load(secret);
    this.entries.set(hash, { lookup, until: now + this.ttlMs });
    const match = await lookup.catch((error: unknown) => {
      this.entries.delete(hash);
      throw error;
    });
    if (!match) this.entries.delete(hash); // an unknown key is looked up again (and counted as a failed authentication)
    return match;
  }

  /** The credential changed (revoked, rotated): the next request looks it up again. */
  forget(id: string): void {
    for (const [hash, entry] of this.entries) {
      void entry.lookup.then(
        (match) => {
          if (match && this.idOf(match) === id) this.entries.delete(hash);
        },
        () => undefined,
      );
    }
  }
}
