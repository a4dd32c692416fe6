// Issue 5: push throughput. 10,000 payment documents are pushed to POST /v2/documents (API key,
// 64 connections, one document per request) while the service's worker processes them; measured are
// accepted/s (202s over the push phase: first request to last answer) and processed/s (documents processed over the time from the
// first push until the queue is drained), plus the drain rate after the last push.
// Targets: >= 1,000 accepted/s and >= 500 processed/s.
// Placement as in customers.ts: autocannon in this process, the service in a child process (HTTP and
// worker in one process, as a single replica runs), PostgreSQL in its own processes; 2 cores for all.
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import type { BenchContext, Scenario, ScenarioReport } from '../scenario.js';
import { startChildServer } from '../support/child-server.js';
import { seedPush } from './push.seed.js';

const DOCUMENTS = 10_000;
const CONNECTIONS = 64;
const INVOICES = 2_000;
const TARGET_ACCEPTED = 1_000;
const TARGET_PROCESSED = 500;
const DRAIN_TIMEOUT_MS = 300_000;

async function countProcessed(db: pg.Client): Promise<{ processed: number; failed: number }> {
  const { rows } = await db.query<{ processed: number; failed: number }>(
    `SELECT count(*) FILTER (WHERE status = 'processed')::int AS processed, count(*) FILTER (WHERE status IN ('failed', 'dead_lettered'))::int AS failed FROM push_documents`,
  );
  return rows[0];
}

export const pushScenario: Scenario = {
  name: 'push',
  summary: `${DOCUMENTS} payment documents to POST /v2/documents at ${CONNECTIONS} connections: accepted/s (target >= ${TARGET_ACCEPTED}) and processed/s (target >= ${TARGET_PROCESSED})`,
  async run(ctx: BenchContext): Promise<ScenarioReport> {
    const databaseUrl = await ctx.server.freshDatabase('push');
    const seed = await seedPush(databaseUrl, INVOICES);
    // PUSH_* variables of the bench's own environment reach the service: to try a setting without editing.
    const tuning = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('PUSH_'))) as Record<string, string>;
    const env = { LOG_LEVEL: 'silent', PUBLIC_URL: 'https://receivables.bench', FAILED_AUTH_PER_MINUTE: '1000000', ...tuning };
    ctx.log('push: starting the service (HTTP and worker in one process)');
    const dir = ctx.options.profileDir;
    const execArgv = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-name=push-service.cpuprofile'] : [];
    const child = await startChildServer(new URL('../support/service-server.js', import.meta.url), { databaseUrl, env }, { execArgv });
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      let n = 0;
      const body = (i: number) =>
        JSON.stringify({
          document_type: 'payment',
          external_id: `BANK-${i}`,
          amount: '1.25',
          invoice_external_id: seed.invoiceExternalIds[i % INVOICES],
          payment_date: '2026-11-20',
        });
      const cpuBefore = { server: await child.cpuMs(), database: ctx.server.cpuMs() };
      ctx.log(`push: pushing ${DOCUMENTS} payment documents`);
      const started = Date.now();
      // autocannon ends a run with `amount` at its next one-second tick; the push phase ends with the last answer.
      let lastAnswer = started;
      const result = await new Promise<Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: `${child.origin}/v2/documents`,
            connections: CONNECTIONS,
            amount: DOCUMENTS,
            timeout: 30,
            requests: [
              {
                method: 'POST',
                headers: { authorization: `ApiKey ${seed.apiKey}`, 'content-type': 'application/json' },
                setupRequest: (req) => ({ ...req, body: body(n++) }),
              },
            ],
          },
          (error, finished) => (error ? reject(error) : resolve(finished)),
        );
        instance.on('response', () => (lastAnswer = Date.now()));
      });
      const pushEnded = lastAnswer;
      const accepted = result.statusCodeStats['202']?.count ?? 0;
      const atPushEnd = await countProcessed(db);
      ctx.log(
        `push: ${accepted} accepted in ${pushEnded - started} ms; ${atPushEnd.processed} processed so far; waiting for the queue to drain`,
      );
      let state = atPushEnd;
      while (state.processed + state.failed < accepted && Date.now() - pushEnded < DRAIN_TIMEOUT_MS) {
        await new Promise((r) => setTimeout(r, 100));
        state = await countProcessed(db);
      }
      const drained = Date.now();
      const cpu = { server: (await child.cpuMs()) - cpuBefore.server, database: (ctx.server.cpuMs() ?? 0) - (cpuBefore.database ?? 0) };
      const { rows: payments } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE source = 'PUSH'`);
      const acceptedPerSec = Math.round(accepted / ((pushEnded - started) / 1000));
      const processedPerSec = Math.round(state.processed / ((drained - started) / 1000));
      const drainPerSec =
        drained > pushEnded ? Math.round((state.processed - atPushEnd.processed) / ((drained - pushEnded) / 1000)) : processedPerSec;
      const figures = {
        documents: DOCUMENTS,
        connections: CONNECTIONS,
        invoices: INVOICES,
        accepted,
        non2xx: result.non2xx,
        errors: result.errors,
        pushMs: pushEnded - started,
        drainedMs: drained - started,
        acceptedPerSec,
        processedPerSec,
        drainPerSec,
        processedAtPushEnd: atPushEnd.processed,
        processed: state.processed,
        failed: state.failed,
        paymentsBooked: payments[0].n,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        cpuMsPerDocument: { server: round3(cpu.server / DOCUMENTS), database: round3(cpu.database / DOCUMENTS) },
      };
      return {
        table: {
          columns: ['phase', 'documents', 'ms', 'per second', 'p50 ms', 'p99 ms'],
          rows: [
            ['push (202 accepted)', accepted, figures.pushMs, acceptedPerSec, result.latency.p50, result.latency.p99],
            ['processed (first push → drained)', state.processed, figures.drainedMs, processedPerSec, '', ''],
            ['drain after the last push', state.processed - atPushEnd.processed, drained - pushEnded, drainPerSec, '', ''],
          ],
        },
        notes: [
          `${atPushEnd.processed} documents were processed while the push was still running; ${state.failed} failed; ${payments[0].n} payments booked`,
          `CPU per document: service ${figures.cpuMsPerDocument.server} ms (HTTP + worker), PostgreSQL ${figures.cpuMsPerDocument.database} ms`,
          ...(Object.keys(tuning).length
            ? [
                `settings from the environment: ${Object.entries(tuning)
                  .map(([k, v]) => `${k}=${v}`)
                  .join(' ')}`,
              ]
            : []),
        ],
        targets: [
          {
            name: `accepted/s >= ${TARGET_ACCEPTED}`,
            met: acceptedPerSec >= TARGET_ACCEPTED && result.non2xx === 0,
            detail: `${acceptedPerSec}/s, ${result.non2xx} non-2xx`,
          },
          {
            name: `processed/s >= ${TARGET_PROCESSED}`,
            met: processedPerSec >= TARGET_PROCESSED && state.processed === DOCUMENTS,
            detail: `${processedPerSec}/s (${state.processed}/${DOCUMENTS})`,
          },
          { name: 'every payment booked exactly once', met: payments[0].n === DOCUMENTS, detail: `${payments[0].n}` },
        ],
        figures,
      };
    } finally {
      await db.end();
      await child.stop();
    }
  },
};

const round3 = (n: number) => Math.round(n * 1000) / 1000;
