// Runs batch writes of one stream with at most `concurrency` in flight, so the database works on one
// batch while the next is being downloaded and mapped (and on a second one when it can). The first
// failure stops the stream: later submissions and drain() throw it.
export class BatchWriter {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly concurrency: number) {}

  /** Starts the write once a slot is free. */
  async submit(write: () => Promise<void>): Promise<void> {
    while (this.inFlight.size >= this.concurrency && !this.failure) await Promise.race(this.inFlight);
    this.throwIfFailed();
    const running: Promise<void> = write()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
  }

  /** Waits for every write; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.inFlight);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
