// What must hold after the cluster's run, read from the database, the SMTP server, the replicas and the
// clients' answers; printed as one table. A row is ok, FAILED (hard: the exit code), or pending the
// merge of another branch (printed, not failing, until the coordinator makes it hard).
import pg from 'pg';
import type { Accepted } from './load.js';
import { sha256 } from './load.js';
import type { Replica } from './replicas.js';
import type { TestSmtp } from '../support/smtp.js';
import { groupBy, type Kill, mailCopies } from './mail-copies.js';

export interface Row {
  check: string;
  /** ok, FAILED, or why it does not count yet (e.g. pending merge of h-limits). */
  outcome: string;
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
    (
      await query<{ n: number }>(
        url,
        `SELECT count(*)::int AS n FROM push_documents WHERE id = ANY($1::uuid[]) AND status <> 'processed'`,
        [ids],
      )
    )[0].n;
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

/**
 * Each e-mail arrives once: no Message-ID twice, no subject twice (an invoice's mail, or a reminder the
 * dunning run shipped), every uploaded invoice's mail there.
 *
 * One exception, and only one: a mail the killed replica had handed to the SMTP server before it died,
 * with the delivery's record still uncommitted (the test's lock on every invoice holds that commit back),
 * is sent again by a live replica once the job has expired. SMTP cannot do better than at-least-once here;
 * the copy carries the same Message-ID, by which the recipient's mail system sees one message. Such a pair
 * is told apart by the EHLO name of the replica that sent each copy and the time of the kill; every
 * other second copy fails the check.
 */
export async function mailsOnce(url: string, smtp: TestSmtp, uploads: Accepted['uploads'], kill: Kill, waitMs: number): Promise<Row> {
  const invoiceSubject = (number: string) => `Rechnung ${number} von `;
  const subjects = () => smtp.received.map((m) => m.parsed.subject ?? '(none)');
  const allThere = () => uploads.every((u) => subjects().some((s) => s.startsWith(invoiceSubject(u.number))));
  await waitFor(() => Promise.resolve(allThere()), waitMs);
  const { resent, twiceById, twiceBySubject } = mailCopies(smtp.received, kill);
  const missing = uploads.filter((u) => !subjects().some((s) => s.startsWith(invoiceSubject(u.number)))).length;
  const reminders = subjects().filter((s) => !/^Rechnung C-\d+ von /.test(s)).length;
  // The service's own record: one shipment per document, one delivered e-mail per shipment.
  const [records] = await query<{ delivered_twice: number }>(
    url,
    `SELECT count(*)::int AS delivered_twice FROM (SELECT shipment_id FROM deliveries WHERE outcome = 'delivered' GROUP BY 1 HAVING count(*) > 1) d`,
  );
  const ok = twiceById.length === 0 && twiceBySubject.length === 0 && missing === 0 && records.delivered_twice === 0;
  const senders = [...groupBy(smtp.received, (m) => m.heloName).entries()].map(([name, mails]) => `${name.split('.')[0]} ${mails.length}`);
  return row(
    'each e-mail delivered once',
    ok,
    `${smtp.received.length} mails (${uploads.length} invoices, ${reminders} reminders; ${senders.sort().join(', ')}), ${new Set(smtp.received.map((m) => m.parsed.messageId)).size} Message-IDs; ` +
      `sent again after the kill cut the first copy's record: ${resent.length}${resent.length ? ` (${resent.join('; ')})` : ''}; ` +
      `twice otherwise: ${twiceById.length} ids, ${twiceBySubject.length} subjects${twiceBySubject.length ? ` (${twiceBySubject.slice(0, 2).join('; ')})` : ''}; ` +
      `invoice mails missing ${missing}; shipments delivered twice ${records.delivered_twice}; SMTP attempts ${smtp.attempts}`,
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
