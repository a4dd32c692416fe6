// A company with something in every "needs you" list, seeded through the API where it can act and
// through SQL for the states only a failing outside world produces (a failed shipment, a dead letter,
// a failed ERP pull), with look-alikes that must not count: a superseded shipment, a lapsed block, …
import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { SAP_SERVICE_PATHS } from '../../src/erp-pull/mapping/erp-mapping.js';
import { OPEN_STATUSES } from '../../src/invoices/invoice-status.js';
import { createCustomer } from '../support/factories.js';
import { invoiceApi, setStatus } from '../support/invoice-factories.js';
import { dataSource, type TestCompany } from '../support/test-app.js';

export type NeedsYouCounts = Record<'shipments' | 'approvals' | 'deadLetters' | 'failedPulls' | 'blocked', number>;

const bare = (publicId: string) => publicId.slice(publicId.indexOf('-') + 1);

/** Seeds the lists; answers the counts they must show (distinct per list, so that a mix-up shows). */
export async function seedNeedsYou(app: INestApplication, company: TestCompany): Promise<NeedsYouCounts> {
  const db = dataSource(app);
  const companyId = bare(company.id);
  const customer = await createCustomer(app, company);
  const invoices = invoiceApi(app, company);
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const invoice = await invoices.createOk({
      customer_id: customer.id as string,
      total: `${100 + i}.00`,
      invoice_date: '2019-12-01',
      due_date: '2020-01-01',
      'options[autoskip_shipping]': 'true',
    });
    ids.push(invoice.id as string);
  }
  // Blocks: five hold (until lifted, or until a later date), one lapsed in 2020.
  for (const [i, until] of [
    [0, ''],
    [1, '2099-12-31'],
    [2, ''],
    [3, ''],
    [4, '2099-12-31'],
    [5, '2020-01-01'],
  ] as const) {
    await invoices.patchForm(ids[i], { dunning_block_reason: `Klärung ${i}`, dunning_block_until: until }).expect(200);
  }
  // One reminder waits for approval (ready for reminder 1, none issued yet).
  await setStatus(app, ids[0], 'ready_for_reminder1');

  // Shipments: three flagged and still the newest of their document; a flagged one superseded by a later
  // shipment, and a failed one without a flag, do not count.
  const shipment = (invoiceId: string, status: string, attention: string | null, minutesAgo: number) =>
    db.query(
      `INSERT INTO shipments (company_id, id, invoice_id, document, shipping_mode, status, attention, actor_type, created_at)
       VALUES ($1, $2, $3, 'invoice', 'email', $4, $5, 'system', now() - make_interval(mins => $6))`,
      [companyId, randomUUID(), bare(invoiceId), status, attention, minutesAgo],
    );
  for (const i of [0, 1, 2]) await shipment(ids[i], i === 2 ? 'needs_attention' : 'failed', 'email_failed', 10);
  await shipment(ids[3], 'needs_attention', 'no_email_address', 30);
  await shipment(ids[3], 'shipped', null, 5);
  await shipment(ids[4], 'failed', null, 10);

  // Push documents: four dead letters; a failed (still retried) and a discarded one do not count.
  const document = (status: string, n: number) =>
    db.query(
      `INSERT INTO push_documents (company_id, id, document_type, external_id, version, payload, payload_hash, status,
                                   credential_type, credential_id)
       VALUES ($1, $2, 'invoice', $3, 1, '{}', '\\x00', $4, 'api_token', $5)`,
      [companyId, randomUUID(), `EXT-${n}-${randomUUID()}`, status, randomUUID()],
    );
  for (let n = 0; n < 4; n++) await document('dead_lettered', n);
  await document('failed', 10);
  await document('discarded', 11);

  // ERP connections: two whose latest pull failed; one failed before but succeeded since; one never pulled.
  const connection = async (runs: string[]) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO erp_connections (company_id, id, name, base_url, odata_version, auth_method, entities, service_paths)
       VALUES ($1, $2, $3, 'https://erp.example.com', 'v4', 'basic', '{customers,receivables}', $4)`,
      [companyId, id, `SAP ${id.slice(0, 8)}`, JSON.stringify(SAP_SERVICE_PATHS)],
    );
    for (const [i, status] of runs.entries()) {
      await db.query(
        `INSERT INTO erp_pull_runs (company_id, id, connection_id, trigger, status, queued_at, finished_at)
         VALUES ($1, $2, $3, 'schedule', $4, now() - make_interval(hours => $5), now() - make_interval(hours => $5))`,
        [companyId, randomUUID(), id, status, runs.length - i],
      );
    }
  };
  await connection(['succeeded', 'failed']);
  await connection(['failed']);
  await connection(['failed', 'succeeded']);
  await connection([]);
  return { shipments: 3, approvals: 1, deadLetters: 4, failedPulls: 2, blocked: 5 };
}

/** The same counts as the API lists them for the company. */
export async function countsOfTheApi(app: INestApplication, company: TestCompany, today: string): Promise<NeedsYouCounts> {
  const get = async (path: string) => (await request(app.getHttpServer()).get(path).set('Authorization', company.auth).expect(200)).body;
  const total = async (path: string) => (await get(path)).meta.total_count as number;
  const connections = (await get('/api/v1/erp_connections?per_page=100')).erp_connections as Array<{ id: string }>;
  let failedPulls = 0;
  for (const c of connections) {
    const runs = (await get(`/api/v1/erp_connections/${c.id}/pulls?per_page=1`)).pull_runs as Array<{ status: string }>;
    if (runs[0]?.status === 'failed') failedPulls++;
  }
  const listed = (await get('/api/v1/invoices?per_page=100')).invoices as Array<{
    invoice_status: string;
    dunning_block: { reason: string; until: string | null } | null;
  }>;
  const blocked = listed.filter(
    (i) =>
      (OPEN_STATUSES as readonly string[]).includes(i.invoice_status) &&
      i.dunning_block !== null &&
      (i.dunning_block.until === null || i.dunning_block.until >= today),
  ).length;
  return {
    shipments: await total('/api/v1/shipments/attention'),
    approvals: await total('/api/v1/dunning/approvals'),
    deadLetters: await total('/v2/dead_letters'),
    failedPulls,
    blocked,
  };
}

/** The counters as the dashboard shows them (data-count of each row). */
export function countsOnThePage(html: string): NeedsYouCounts {
  const count = (key: string) => {
    const match = new RegExp(`data-needs="${key}"[\\s\\S]*?data-count="(\\d+)"`).exec(html);
    if (!match) throw new Error(`no counter ${key} on the page`);
    return Number(match[1]);
  };
  return {
    shipments: count('shipments'),
    approvals: count('approvals'),
    deadLetters: count('deadLetters'),
    failedPulls: count('failedPulls'),
    blocked: count('blocked'),
  };
}
