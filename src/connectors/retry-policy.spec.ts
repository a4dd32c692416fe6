import { backoffMs, isRetryableStatus, parseRetryAfter } from './retry-policy.js';

describe('retry policy', () => {
  const policy = { retries: 3, baseDelayMs: 1000, maxRetryAfterMs: 60_000 };

  it('doubles the ceiling per retry and jitters within its upper half', () => {
    expect([1, 2, 3].map((n) => backoffMs(policy, n, () => 0))).toEqual([500, 1000, 2000]);
    expect([1, 2, 3].map((n) => backoffMs(policy, n, () => 0.999999))).toEqual([1000, 2000, 4000]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    const now = Date.parse('2026-01-31T10:00:00Z');
    expect(parseRetryAfter('Sat, 31 Jan 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('retries 429 and 5xx only', () => {
    expect([429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 409, 422].some(isRetryableStatus)).toBe(false);
  });
});
