// `npm run test:cluster` (issue 22): three replicas of the built service behind nginx (TLS, the
// template in docs/cluster/nginx.conf), real PostgreSQL, S3, SMTP and the SAP stand-in; pushes,
// uploads, reads, a scheduled pull, e-mail shipping and the scheduled dunning run at the same time,
// while a replica is killed (-9), S3 answers 503 and SMTP 451; then a short phase that stops a throwaway
// PostgreSQL for 15 s under pushes. Prints what held as a table; exit code 1 when a hard check failed.
import { join } from 'node:path';
import { freePort } from '../support/service-process.js';
import { failed, printTable, type Row } from './checks.js';
import { findNginx } from './nginx.js';
import { mainPhase } from './main-phase.js';
import { postgresPhase } from './postgres-phase.js';
import { makeWorkDir, startSurroundings } from './setup.js';

async function main(): Promise<number> {
  const nginx = findNginx();
  if (!nginx) {
    console.log('SKIPPED: npm run test:cluster needs nginx (Debian: apt-get install -y nginx); nothing was run.');
    return 0;
  }
  const started = Date.now();
  const work = await makeWorkDir();
  const around = await startSurroundings(work.dir);
  let rows: Row[] = [];
  let keep = false;
  try {
    rows = await mainPhase(nginx, work.dir, around, freePort);
    printTable('Cluster: 3 replicas behind nginx, faults under load', rows);
    const postgres = await postgresPhase(join(work.dir, 'pg-phase'), around);
    printTable('Cluster: PostgreSQL stopped for 15 s under pushes (throwaway server)', postgres);
    rows = [...rows, ...postgres];
  } catch (error) {
    keep = true;
    console.error(error);
    console.error(`Logs kept in ${work.dir}`);
    rows.push({ check: 'the run itself', outcome: 'FAILED', detail: error instanceof Error ? error.message : String(error) });
  } finally {
    await around.close();
  }
  const bad = failed(rows);
  console.log(`\n${bad.length === 0 ? 'PASSED' : `FAILED (${bad.length} hard checks)`} in ${Math.round((Date.now() - started) / 1000)} s`);
  if (bad.length > 0) {
    keep = true;
    console.log(`Replica logs and nginx's error log: ${work.dir}`);
  }
  if (keep) await work.removeData();
  else await work.remove();
  return bad.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
