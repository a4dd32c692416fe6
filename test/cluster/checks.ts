// What must hold after the cluster's run, read from the database, the SMTP server, the replicas and the
// clients' answers; printed as one table. A row is ok, FAILED (hard: the exit code), or pending the
// merge of another branch (printed, not failing, until the coordinator makes it hard).
import pg from 'pg';
import type { Accepted } from './load.js';
import { sha256 } from './load.js';
import type { Replica } from './replicas.js';
import type { TestSmtp } from '../support/smtp.js';

export interface Row {
  check: string;
  outcome: 'ok' | 'FAILED' | string;
  detail: string;
}

export const row = (check: string, ok: boolean, detail: string, pending?: string): Row => ({
  check,
  outcome: ok ? 'ok' : (pending ?? 'FAILED'),
  detail,
});

export function printTable(title: string, rows: Row[]): void {
  const width = (pick: (r: Row) => string, head: string) => Math.max(head.length, ...rows.map((r) => pick(r).length));
  const w1 = width((r) => r.check, 'check');
  const w2 = width((r) => r.outcome, 'outcome');
  console.log(`\n${title}`);
  console.log(`${'check'.padEnd(w1)} | ${'outcome'.padEnd(w2)} | detail`);
  console.log(`${'-'.repeat(w1)}-+-${'-'.repeat(w2)}-+-------`);
  for (const r of rows) console.log(`${r.check.padEnd(w1)} | ${r.outcome.padEnd(w2)} | ${r.detail}`);
}

export const failed = (rows: Row[]) => rows.filter((r) => r.outcome === 'FAILED');

async function query<T extends object>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const uuid = (publicId: string) => publicId.slice(publicId.indexOf('-') + 1);

export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return probe();
}

/** Every accepted push ends processed, and its payment is booked once. */
export async function pushesProcessedOnce(url: string, accepted: Accepted['pushes'], waitMs: number): Promise<Row> {
  const ids = accepted.map((p) => uuid(p.id));
  const notProcessed = async () =>
    (await query<{ n: number }>(url, `SELECT count(*)::int AS n FROM push_documents WHERE id = ANY($1::uuid[]) AND status <> 'processed'`, [ids]))[0].n;
  await waitFor(async () => (await notProcessed()) === 0, waitMs);
  const open = await notProcessed();
  const payments = await query<{ external_id: string; n: number }>(
    url,
    `SELECT external_id, count(*)::int AS n FROM payments WHERE external_id = ANY($1::text[]) GROUP BY external_id`,
    [accepted.map((p) => p.externalId)],
  );
  const once = payments.filter((p) => p.n === 1).length;
  const twice = payments.filter((p) => p.n > 1).length;
  return row(
    'every 202 push processed once',
    open === 0 && once === accepted.length && twice === 0,
    `${accepted.length} accepted; ${open} not processed; payments booked once ${once}, more than once ${twice}`,
  );
}

/** Every uploaded PDF, fetched from each replica directly, is the bytes that were sent. */
export async function uploadsReadable(replicas: Replica[], token: string, uploads: Accepted['uploads']): Promise<Row> {
  let checked = 0;
  const wrong: string[] = [];
  for (const replica of replicas) {
    for (const upload of uploads) {
      const res = await fetch(`${replica.origin}/api/v1/invoices/${upload.id}/pdf`, {
        // The replica trusts this from 127.0.0.1 (TRUSTED_PROXIES) as it trusts the proxy.
        headers: { Authorization: `Token token=${token}`, 'X-Forwarded-Proto': 'https' },
      });
      const body = Buffer.from(await res.arrayBuffer());
      checked++;
      if (res.status !== 200 || sha256(body) !== upload.sha256) wrong.push(`${replica.name} ${upload.number}: ${res.status}`);
    }
  }
  return row(
    'every upload byte-identical through every replica',
    wrong.length === 0 && uploads.length > 0,
    `${uploads.length} uploads x ${replicas.length} replicas = ${checked} reads; wrong ${wrong.length}${wrong.length ? ` (${wrong.slice(0, 3).join('; ')})` : ''}`,
  );
}

/** Each uploaded invoice's e-mail arrives once: no Message-ID twice, one mail per invoice number. */
export async function mailsOnce(url: string, smtp: TestSmtp, uploads: Accepted['uploads'], waitMs: number): Promise<Row> {
  const numbers = new Set(uploads.map((u) => u.number));
  const mailed = () => new Set(smtp.received.map((m) => /Rechnung (C-\d+)/.exec(m.parsed.subject ?? '')?.[1]).filter((n) => n && numbers.has(n)));
  await waitFor(async () => mailed().size === numbers.size, waitMs);
  const byMessageId = new Map<string, number>();
  const byNumber = new Map<string, number>();
  for (const mail of smtp.received) {
    const id = mail.parsed.messageId ?? '(none)';
    byMessageId.set(id, (byMessageId.get(id) ?? 0) + 1);
    const number = /Rechnung (C-\d+)/.exec(mail.parsed.subject ?? '')?.[1];
    if (number) byNumber.set(number, (byNumber.get(number) ?? 0) + 1);
  }
  const duplicateIds = [...byMessageId.values()].filter((n) => n > 1).length;
  const duplicateInvoices = [...byNumber.values()].filter((n) => n > 1).length;
  const missing = [...numbers].filter((n) => !byNumber.has(n)).length;
  const twice = [...byNumber.entries()].filter(([, n]) => n > 1).map(([number]) => number);
  const sample = twice.slice(0, 2).map((number) => {
    const mails = smtp.received.filter((m) => (m.parsed.subject ?? '').includes(`Rechnung ${number} `));
    return `${number}: ${mails.map((m) => `${m.parsed.date?.toISOString().slice(11, 23)} ${m.parsed.messageId}`).join(' / ')}`;
  });
  // The service's own record: a shipment per invoice, one delivered e-mail per shipment.
  const [records] = await query<{ shipments_twice: number; delivered_twice: number }>(
    url,
    `SELECT (SELECT count(*)::int FROM (SELECT invoice_id FROM shipments WHERE reminder_id IS NULL GROUP BY 1 HAVING count(*) > 1) s) AS shipments_twice,
            (SELECT count(*)::int FROM (SELECT shipment_id FROM deliveries WHERE outcome = 'delivered' GROUP BY 1 HAVING count(*) > 1) d) AS delivered_twice`,
  );
  return row(
    'each e-mail delivered once',
    duplicateIds === 0 && duplicateInvoices === 0 && missing === 0,
    `${numbers.size} invoices, ${smtp.received.length} mails, ${byMessageId.size} Message-IDs; twice: ${duplicateIds} ids, ${duplicateInvoices} invoices; missing ${missing}; SMTP attempts ${smtp.attempts}; invoices with 2+ shipments ${records.shipments_twice}, shipments delivered 2+ times ${records.delivered_twice}${sample.length ? `; e.g. ${sample.join('; ')}` : ''}`,
  );
}

export async function dunningOncePerCompany(url: string, companies: string[], waitMs: number): Promise<Row> {
  const runs = () =>
    query<{ company_id: string; business_date: string; n: number; ok: number }>(
      url,
      `SELECT company_id, business_date::text, count(*)::int AS n, count(*) FILTER (WHERE status = 'succeeded')::int AS ok
         FROM dunning_runs WHERE trigger = 'schedule' GROUP BY 1, 2`,
    );
  await waitFor(async () => (await runs()).length >= companies.length, waitMs);
  const found = await runs();
  const good = found.filter((r) => r.n === 1 && r.ok === 1).length;
  return row(
    'one scheduled dunning run per company and date',
    good === companies.length && found.length === companies.length,
    `${companies.length} companies; ${found.map((r) => `${r.business_date}: ${r.n} run(s), ${r.ok} succeeded`).join('; ') || 'no run'}`,
  );
}

export async function onePullPerSlot(url: string): Promise<Row> {
  const slots = await query<{ slot: string; n: number; statuses: string }>(
    url,
    `SELECT to_char(date_trunc('minute', queued_at), 'HH24:MI') AS slot, count(*)::int AS n, string_agg(status, ',') AS statuses
       FROM erp_pull_runs WHERE trigger = 'schedule' GROUP BY 1 ORDER BY 1`,
  );
  const doubled = slots.filter((s) => s.n > 1);
  return row(
    'one ERP pull per schedule slot',
    slots.length > 0 && doubled.length === 0,
    `${slots.length} slots: ${slots.map((s) => `${s.slot} ${s.statuses}`).join('; ')}`,
  );
}

/** Nothing left behind: no pending push, no job active or overdue, no pull or shipment in flight. */
export async function nothingStuck(url: string, waitMs: number): Promise<Row> {
  const counts = async () =>
    (
      await query<{ pushes: number; jobs: number; pulls: number; shipments: number }>(
        url,
        `SELECT (SELECT count(*)::int FROM push_documents WHERE status IN ('queued', 'processing', 'failed')) AS pushes,
                (SELECT count(*)::int FROM pgboss.job WHERE state = 'active' OR (state IN ('created', 'retry') AND start_after < now() - interval '30 seconds')) AS jobs,
                (SELECT count(*)::int FROM erp_pull_runs WHERE status IN ('queued', 'running')) AS pulls,
                (SELECT count(*)::int FROM shipments WHERE status = 'pending') AS shipments`,
      )
    )[0];
  await waitFor(async () => Object.values(await counts()).every((n) => n === 0), waitMs);
  const c = await counts();
  return row(
    'no job stuck',
    Object.values(c).every((n) => n === 0),
    `pending pushes ${c.pushes}, jobs active/overdue ${c.jobs}, pulls in flight ${c.pulls}, shipments open ${c.shipments}`,
  );
}

export async function recovered(replicas: Replica[], killed: string[]): Promise<Row> {
  const states = await Promise.all(replicas.map(async (r) => ({ r, ready: await r.status('/health/ready') })));
  const bad = states.filter(({ r, ready }) => ready !== 200 || r.unexpectedExits > 0 || (r.restarts > 0 && !killed.includes(r.name)));
  return row(
    'every replica recovered without a restart',
    bad.length === 0,
    states.map(({ r, ready }) => `${r.name}: ready ${ready}, restarts ${r.restarts}, crashes ${r.unexpectedExits}`).join('; '),
  );
}
