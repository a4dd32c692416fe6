// PostgreSQL away for 15 s under pushes, on a throwaway embedded server this run starts (never the
// shared one): three replicas, pushes sent to them in turn, the server stopped and started again. Every
// replica must recover without a restart and every accepted push be processed once.
import { mkdirSync } from 'node:fs';
import { freePort } from '../support/service-process.js';
import { Client, type FaultWindow, unexpectedAnswers } from './client.js';
import { pushesProcessedOnce, recovered, row, type Row } from './checks.js';
import { type Accepted } from './load.js';
import { Replica } from './replicas.js';
import { OPEN_INVOICES, seedOpenInvoices } from './seed.js';
import { createCompany, newSecretsKey, replicaEnv, type Surroundings, throwawayDatabase } from './setup.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function postgresPhase(work: string, around: Surroundings): Promise<Row[]> {
  mkdirSync(work, { recursive: true });
  const database = await throwawayDatabase(work, 'stopped');
  const env = replicaEnv(database.url, 'https://127.0.0.1:1', around, newSecretsKey());
  const replicas = await Promise.all(['p1', 'p2', 'p3'].map(async (name) => new Replica(name, await freePort(), env, work)));
  const clients = replicas.map((r) => new Client(r.origin, ''));
  try {
    const company = await createCompany(env, 'Pause GmbH', 'ops@pause.test');
    await seedOpenInvoices(database.url, company);
    await Promise.all(replicas.map((r) => r.start()));
    const accepted: Accepted['pushes'] = [];
    let stop = false;
    let n = 0;
    const pushLoop = async (client: Client) => {
      while (!stop) {
        const externalId = `PAUSE-${++n}`;
        const body = JSON.stringify({
          document_type: 'payment',
          external_id: externalId,
          amount: '1.25',
          invoice_external_id: `RE-${(n % OPEN_INVOICES) + 1}`,
          payment_date: '2026-11-20',
        });
        const res = await client.send(
          'push',
          'POST',
          '/v2/documents',
          { Authorization: `ApiKey ${company.key}`, 'Content-Type': 'application/json', 'X-Forwarded-Proto': 'https' },
          body,
        );
        if (res.status === 202) accepted.push({ id: res.json().document.id, externalId });
        await sleep(res.status === 202 ? 20 : 500);
      }
    };
    const loops = Promise.all(clients.map(pushLoop));
    await sleep(5000);
    const from = Date.now();
    console.log('[cluster] PostgreSQL stopped for 15 s');
    await database.restartable!.down();
    await sleep(15_000);
    await database.restartable!.up();
    const back = Date.now();
    const readyIn = await Promise.all(
      replicas.map((r) =>
        r.waitUntil('/health/ready', 30_000).then(
          () => (Date.now() - back) / 1000,
          () => NaN,
        ),
      ),
    );
    console.log(`[cluster] PostgreSQL back; replicas ready after ${readyIn.map((s) => s.toFixed(1)).join(', ')} s`);
    const window: FaultWindow = { name: 'PostgreSQL stopped', from, to: back + 10_000 };
    await sleep(10_000);
    stop = true;
    await loops;
    const answers = clients.flatMap((c) => c.answers);
    const unexpected = unexpectedAnswers(answers, [window], 0);
    const accepted202 = answers.filter((a) => a.status === 202);
    return [
      await pushesProcessedOnce(database.url, accepted, 60_000),
      await recovered(replicas, []),
      row(
        'pushes accepted again after PostgreSQL came back',
        accepted202.some((a) => a.at > back),
        `${accepted202.filter((a) => a.at > back).length} accepted after it came back; replicas ready after ${readyIn.map((s) => s.toFixed(1)).join(', ')} s`,
      ),
      row(
        'clients saw only 2xx, 429, 503 with Retry-After while PostgreSQL was away',
        unexpected.length === 0,
        `${answers.length} requests; unexpected ${unexpected.length}${
          unexpected.length
            ? `: ${unexpected
                .slice(0, 3)
                .map((a) => a.status || a.error)
                .join('; ')}`
            : ''
        }`,
      ),
    ];
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(replicas.map((r) => r.stop()));
    await database.stop();
  }
}
