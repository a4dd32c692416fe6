// Waiting in a test for something the service does in the background (a delivery, a log line).

/** Polls `probe` until it gives a truthy value, which it returns; fails after `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
