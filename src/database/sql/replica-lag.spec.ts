import { ReplicaLag, walPosition } from './replica-lag.js';

describe(ReplicaLag.name, () => {
  it('reads a WAL position as PostgreSQL writes it', () => {
    expect(walPosition('0/16B3748')).toBe(0x16b3748n);
    expect(walPosition('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(() => walPosition('16-B374')).toThrow('Not a WAL position');
  });

  it('is as old as the newest primary position the standby has replayed', () => {
    const lag = new ReplicaLag(10_000);
    lag.sample(1_000, 100n);
    lag.sample(2_000, 200n);
    lag.sample(3_000, 300n);
    expect(lag.lagMs(300n, 3_100)).toBe(100);
    expect(lag.lagMs(250n, 3_100)).toBe(1_100);
    expect(lag.acceptable(250n, 3_100)).toBe(true);
  });

  it('is too far behind when it replayed no position of the window, or one older than the bound', () => {
    const lag = new ReplicaLag(1_000);
    lag.sample(1_000, 100n);
    expect(lag.acceptable(99n, 1_000)).toBe(false);
    expect(lag.acceptable(100n, 2_500)).toBe(false);
    lag.sample(2_500, 200n);
    // The sample of 1,000 fell out of the window: a standby still at 150 has replayed nothing we know of.
    expect(lag.lagMs(150n, 2_500)).toBeUndefined();
  });
});
