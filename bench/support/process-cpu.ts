// CPU time of other processes, from /proc (Linux): the embedded PostgreSQL's postmaster and backends,
// so a run can say how much of the machine the database used per request. Undefined elsewhere.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * [ppid, own user + system ticks, reaped children's user + system ticks] of a process, from
 * /proc/<pid>/stat (the command may contain spaces).
 */
function stat(pid: number): [number, number, number] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12]), Number(fields[13]) + Number(fields[14])];
  } catch {
    return undefined;
  }
}

/**
 * CPU ms used so far by a PostgreSQL server: the postmaster (first line of postmaster.pid), its live
 * children (backends, workers) and the ones that have exited (a pool closing idle connections), which
 * the kernel adds to the postmaster's children time when it reaps them.
 */
export function postgresCpuMs(postmasterPidFile: string): number | undefined {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(postmasterPidFile, 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  const own = stat(postmaster);
  if (own === undefined) return undefined;
  let ticks = own[1] + own[2];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const process = stat(Number(entry));
    if (process && process[0] === postmaster) ticks += process[1];
  }
  return (ticks * 1000) / clockTicks();
}
