// The daily run and the company's ERP pulls: the run waits for pulls that are under way or whose
// scheduled time has come, never for failed or dead ones, and at most PULL_WAIT_LIMIT_MINUTES after its
// run time. The scheduler's clock is injected (tick(now)).
import { DunningScheduler, PULL_WAIT_LIMIT_MINUTES } from '../../src/dunning/dunning-scheduler.js';
import { withoutRateLimits } from '../support/factories.js';
import { DunningHarness, type Json, waitFor } from '../support/dunning.js';
import { useTestApp } from '../support/use-test-app.js';

const minutes = (n: number) => n * 60_000;
/** 07:30 in Berlin; the policy's run time is 07:00. */
const NOW = new Date('2026-03-10T06:30:00Z');

describe('the daily run waits for the ERP pulls', () => {
  let d: DunningHarness;
  let companyId: string;

  const t = useTestApp(withoutRateLimits(), { reset: 'manual' });
  beforeAll(() => {
    d = new DunningHarness(t.app);
  });
  beforeEach(async () => {
    await d.reset();
    companyId = d.company.id.slice(4);
    await d.policy({ run_at: '07:00' });
  });

  const sql = (text: string, params: unknown[] = []) => t.db.query(text, params);
  const tick = (now = NOW) => t.app.get(DunningScheduler).tick(now);

  async function connection(schedule: string | null = null, nextPullAt: Date | null = null): Promise<string> {
    const rows = await sql(
      `INSERT INTO erp_connections (company_id, id, name, base_url, odata_version, auth_method, entities, service_paths, schedule, next_pull_at)
       VALUES ($1, gen_random_uuid(), 'SAP', 'https://sap.example', 'v2', 'basic', '{receivables}', '{}', $2, $3) RETURNING id`,
      [companyId, schedule, nextPullAt],
    );
    return rows[0].id;
  }

  async function pull(
    connectionId: string,
    status: string,
    times: { queuedAt: Date; startedAt?: Date; heartbeatAt?: Date },
  ): Promise<void> {
    await sql(
      `INSERT INTO erp_pull_runs (company_id, id, connection_id, trigger, status, queued_at, started_at, heartbeat_at)
       VALUES ($1, gen_random_uuid(), $2, 'schedule', $3, $4, $5, $6)`,
      [companyId, connectionId, status, times.queuedAt, times.startedAt ?? null, times.heartbeatAt ?? null],
    );
  }

  const scheduledRun = (): Promise<Json> =>
    waitFor(async () => {
      const rows = await sql(
        `SELECT status, to_char(business_date, 'YYYY-MM-DD') AS date, errors FROM dunning_runs WHERE trigger = 'schedule' AND status <> 'running'`,
      );
      return rows[0];
    }, 'the scheduled run');

  it('does not start before the run time, then runs once when no pull is in the way', async () => {
    expect(await tick(new Date('2026-03-10T05:59:00Z'))).toBe(0);
    expect(await tick()).toBe(1);
    expect(await scheduledRun()).toMatchObject({ status: 'succeeded', date: '2026-03-10', errors: [] });
    expect(await tick()).toBe(0);
  });

  it('waits for a pull that is running (alive) or queued, and runs once it succeeded', async () => {
    const erp = await connection();
    await pull(erp, 'running', {
      queuedAt: new Date(NOW.getTime() - minutes(20)),
      startedAt: new Date(NOW.getTime() - minutes(20)),
      heartbeatAt: new Date(NOW.getTime() - minutes(1)),
    });
    expect(await tick()).toBe(0);
    await sql(`UPDATE erp_pull_runs SET status = 'succeeded', finished_at = $1`, [NOW]);
    const other = await connection();
    await pull(other, 'queued', { queuedAt: new Date(NOW.getTime() - minutes(2)) });
    expect(await tick()).toBe(0);
    await sql(`UPDATE erp_pull_runs SET status = 'succeeded', finished_at = $1`, [NOW]);
    expect(await tick()).toBe(1);
    expect(await scheduledRun()).toMatchObject({ status: 'succeeded', errors: [] });
  });

  it('waits for a scheduled pull whose time has come but which has not started yet', async () => {
    const erp = await connection('0 7 * * *', new Date('2026-03-10T06:00:00Z'));
    expect(await tick()).toBe(0);
    // The pull tick took it: next time tomorrow, and the pull ran.
    await sql(`UPDATE erp_connections SET next_pull_at = '2026-03-11T06:00:00Z' WHERE id = $1`, [erp]);
    await pull(erp, 'succeeded', { queuedAt: new Date(NOW.getTime() - minutes(1)) });
    expect(await tick()).toBe(1);
  });

  it('does not wait for a pull that failed, whose process died, or that was queued and never picked up', async () => {
    const erp = await connection('0 5 * * *', new Date('2026-03-11T04:00:00Z'));
    await pull(erp, 'failed', { queuedAt: new Date(NOW.getTime() - minutes(60)) });
    const dead = await connection();
    await pull(dead, 'running', {
      queuedAt: new Date(NOW.getTime() - minutes(90)),
      startedAt: new Date(NOW.getTime() - minutes(90)),
      heartbeatAt: new Date(NOW.getTime() - minutes(30)),
    });
    const stuck = await connection();
    await pull(stuck, 'queued', { queuedAt: new Date(NOW.getTime() - minutes(30)) });
    expect(await tick()).toBe(1);
    expect(await scheduledRun()).toMatchObject({ status: 'succeeded', errors: [] });
  });

  it(`runs anyway ${PULL_WAIT_LIMIT_MINUTES} minutes after the run time, naming the pull it did not wait for`, async () => {
    const erp = await connection();
    const later = new Date(NOW.getTime() + minutes(PULL_WAIT_LIMIT_MINUTES - 30));
    await pull(erp, 'running', { queuedAt: NOW, startedAt: NOW, heartbeatAt: new Date(later.getTime() - minutes(1)) });
    expect(await tick(new Date(later.getTime() - minutes(5)))).toBe(0);
    expect(await tick(later)).toBe(1);
    const run = await scheduledRun();
    expect(run).toMatchObject({ status: 'succeeded', date: '2026-03-10' });
    expect(run.errors).toEqual([
      expect.stringContaining(`ran without waiting for the ERP pull of erp-${erp} (running since ${NOW.toISOString()})`),
    ]);
  });
});
