// When to try an ERP request again and how long to wait: exponential backoff with jitter, or exactly
// what the server asks for in Retry-After (capped: a server asking for an hour ends the run instead).

export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  /** Retry n (1-based) waits a random time between half and all of baseDelayMs · 2^(n−1). */
  baseDelayMs: number;
  maxRetryAfterMs: number;
}

export function backoffMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = policy.baseDelayMs * 2 ** (retry - 1);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- an aborted wait rejects with the signal's own reason (an AbortError unless the caller chose one), as fetch does
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the signal's own reason, as fetch rejects with it
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
