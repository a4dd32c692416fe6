// The reconciliation of a run that read the whole open list (mode full, the first pull, or a mapping
// without change or clearing dates): the connection's invoices that are still open here but were not in
// that list are asked for by key, and what the ERP cleared is booked and settled (whatever the clearing
// date says, so back-dated clearings are caught too).
import { Injectable } from '@nestjs/common';
import { stringLiteral } from '../../connectors/odata-wire.js';
import { Sql } from '../../database/sql/sql.js';
import { selectedProperties } from '../mapping/erp-mapping.js';
import { type InvoiceRow, mapItem } from '../mapping/erp-record-mapper.js';
import { PullReconciliationRepository, type UnseenInvoice } from './pull-reconciliation.repository.js';
import { PulledItemsWriter } from '../run/pulled-items.writer.js';
import { and, entityPath, itemOwner, type RunContext } from '../run/run-context.js';
import { RunProgress } from '../run/run-progress.js';
import { BatchTally } from '../run/run-tally.js';

/** A reconciliation reads the unseen open invoices this many at a time... */
const UNSEEN_PAGE = 1000;
/** ...and asks the ERP for this many keys per request (a $filter of ORed keys; URLs stay a few KB). */
const KEYS_PER_REQUEST = 25;

@Injectable()
export class PullReconciler {
  constructor(
    private readonly sql: Sql,
    private readonly reconciliation: PullReconciliationRepository,
    private readonly items: PulledItemsWriter,
    private readonly progress: RunProgress,
  ) {}

  /**
   * The connection's invoices open here that the ERP's open list no longer holds: asked for by key, a
   * few at a time, and written like any pulled item (a cleared one is booked with its clearing date and
   * settled). Those the ERP does not know at all stay open and are listed in the run's errors.
   */
  async reconcile(ctx: RunContext, started: string): Promise<void> {
    const m = ctx.mapping.receivables;
    const { connection, tally } = ctx;
    const path = entityPath(ctx, 'receivables', m.entity_set);
    const select = selectedProperties(ctx.mapping).receivables;
    const owner = itemOwner(ctx);
    let after: string | null = null;
    for (;;) {
      const unseen = await this.reconciliation.unseenOpen(
        this.sql.manager,
        connection.companyId,
        connection.id,
        ctx.run.id,
        after,
        UNSEEN_PAGE,
      );
      if (unseen.length === 0) break;
      after = unseen[unseen.length - 1].invoiceId;
      for (let i = 0; i < unseen.length; i += KEYS_PER_REQUEST) {
        const batch = tally.take();
        const asked: UnseenInvoice[] = [];
        const clauses: string[] = [];
        for (const item of unseen.slice(i, i + KEYS_PER_REQUEST)) {
          batch.reconciliation.missing++;
          const clause = keyFilter(m.fields.external_id, item);
          if (clause) {
            asked.push(item);
            clauses.push(clause);
          } else {
            batch.reconciliation.not_found++;
            batch.report(
              'receivables',
              item.externalId,
              `open here, but its key does not fit the mapping's ${m.fields.external_id.length} key properties: the ERP cannot be asked for it`,
            );
          }
        }
        const rows: InvoiceRow[] = [];
        const found = new Set<string>();
        const filter = and(m.filter, clauses.join(' or '));
        const pages = clauses.length
          ? ctx.client.pages(path, { select, filter, orderby: m.key }, { pageSize: connection.pageSize, keyFields: m.key })
          : [];
        for await (const page of pages) {
          tally.pages++;
          for (const record of page.records) {
            const mapped = mapItem(record, m, connection.currency);
            if ('row' in mapped) {
              rows.push(mapped.row);
              found.add(mapped.row.externalId.toLowerCase());
              if (mapped.row.cleared) batch.reconciliation.cleared++;
            } else {
              found.add(mapped.key.toLowerCase());
              if ('skip' in mapped) batch.skip('receivables', mapped.skip);
              else batch.fail('receivables', mapped.key, mapped.failure);
            }
          }
        }
        for (const item of asked) {
          if (found.has(item.externalId.toLowerCase())) continue;
          batch.reconciliation.not_found++;
          batch.report(
            'receivables',
            item.externalId,
            'open here, but the ERP has no such item any more (archived or deleted?): left open, check it in the ERP',
          );
        }
        await this.progress.transaction(async (manager) => {
          if (rows.length) await this.items.write(manager, owner, rows, batch, []);
          await this.progress.record(manager, ctx, batch);
        });
        tally.commit(batch);
      }
    }
    const summary = new BatchTally();
    for (const error of tally.skipSummaries('receivables')) summary.report('receivables', error.key, error.message);
    await this.progress.commitWatermark(ctx, 'reconciled', started, summary);
  }
}

/** `(K1 eq '1010' and K2 eq '2026' and …)`: one item by the values of its key properties (those the ERP sent, else the external_id's parts). */
export function keyFilter(paths: string[], item: Pick<UnseenInvoice, 'externalId' | 'erpKey'>): string | undefined {
  const values = Array.isArray(item.erpKey) && item.erpKey.length === paths.length ? item.erpKey : item.externalId.split('-');
  if (values.length !== paths.length) return undefined;
  return `(${paths.map((path, i) => `${path} eq ${typeof values[i] === 'number' ? String(values[i]) : stringLiteral(String(values[i]))}`).join(' and ')})`;
}
