// How far a standby is behind its primary, in time, from WAL positions alone (no clock of the standby):
// each look at both servers keeps the primary's position with the time it was read; a standby that has
// replayed a kept position is at most as far behind as that look is old. A standby that has replayed
// none of the kept positions (just started, paused, cut off) counts as too far behind.

/** A WAL position as PostgreSQL writes it (`16/B374D848`: high and low 32 bits in hex) as one number. */
export function walPosition(text: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!match) throw new Error(`Not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

export class ReplicaLag {
  /** The primary's positions, oldest first, none older than the largest acceptable lag. */
  private samples: Array<{ at: number; position: bigint }> = [];

  constructor(private readonly maxLagMs: number) {}

  sample(at: number, position: bigint): void {
    this.samples = this.samples.filter((s) => s.at > at - this.maxLagMs && s.position <= position);
    this.samples.push({ at, position });
  }

  /** Milliseconds the standby may be behind at most, given what it has replayed; undefined when unknown. */
  lagMs(replayed: bigint, now = Date.now()): number | undefined {
    for (let i = this.samples.length - 1; i >= 0; i--) if (this.samples[i].position <= replayed) return now - this.samples[i].at;
    return undefined;
  }

  acceptable(replayed: bigint, now = Date.now()): boolean {
    const lag = this.lagMs(replayed, now);
    return lag !== undefined && lag <= this.maxLagMs;
  }
}
