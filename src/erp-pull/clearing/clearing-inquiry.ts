// Asks the ERP connections whether they cleared certain pulled items: per connection one request for
// exactly those keys (the open-items service filtered by the keys, with IsCleared), whatever the
// clearing date says. Incremental pulls miss clearings the ERP back-dates; this does not.
import { Injectable, Logger } from '@nestjs/common';
import { SecretBoxError } from '../../config/secret-box.js';
import { ConnectorError } from '../../connectors/connector-error.js';
import { ErpClients } from '../connections/erp-clients.js';
import type { ErpConnection } from '../connections/erp-connection.entity.js';
import { ErpConnectionsRepository } from '../connections/erp-connections.repository.js';
import { effectiveMapping, selectedProperties } from '../mapping/erp-mapping.js';
import { type InvoiceRow, mapItem } from '../mapping/erp-record-mapper.js';
import { keyFilter } from '../reconcile/pull-reconciler.js';
import { and } from '../run/run-context.js';
import type { PulledItem } from './clearing-check.repository.js';

/**
 * Keys per request: a $filter of ORed keys (about 110 characters each) keeps the URL below the 8 KB many
 * gateways accept. A reminder run rarely has more of one connection's items; beyond, one request per 50.
 */
const KEYS_PER_REQUEST = 50;
/** The run waits for the answer inside its transaction: one retry after a network error, not the pull's patience. */
const RETRIES = 1;

export interface ClearingAnswers {
  /** Items the ERP has cleared, by invoice id (the row as the pull would write it). */
  cleared: Map<string, InvoiceRow>;
  /** Items whose connection could not be asked, by invoice id: what went wrong. */
  unreachable: Map<string, string>;
  /** Per connection that could not be asked: its name, public id, error and how many items it holds. */
  failures: Array<{ connection: string; error: string; items: number }>;
  /** Items the ERP did not return at all (archived or deleted there), by invoice id: their external_id. */
  unknown: Map<string, string>;
}

export const noAnswers = (): ClearingAnswers => ({ cleared: new Map(), unreachable: new Map(), failures: [], unknown: new Map() });

@Injectable()
export class ClearingInquiry {
  private readonly logger = new Logger(ClearingInquiry.name);

  constructor(
    private readonly connections: ErpConnectionsRepository,
    private readonly clients: ErpClients,
  ) {}

  /** `requestIdPrefix`: what the ERP's logs see in X-Request-ID (the dunning run's or reminder's public id). */
  async ask(companyId: string, items: PulledItem[], requestIdPrefix: string): Promise<ClearingAnswers> {
    const answers = noAnswers();
    const byConnection = new Map<string, PulledItem[]>();
    for (const item of items) byConnection.set(item.connectionId, [...(byConnection.get(item.connectionId) ?? []), item]);
    for (const [connectionId, own] of byConnection) {
      const connection = await this.connections.findById(companyId, connectionId);
      if (!connection) continue; // deleted meanwhile: its invoices are no longer the ERP's to clear
      try {
        await this.askConnection(connection, own, requestIdPrefix, answers);
      } catch (error) {
        if (!(error instanceof ConnectorError) && !(error instanceof SecretBoxError)) throw error;
        this.logger.warn({ company: companyId, connection: connectionId, error: error.message }, 'ERP not reachable before reminders');
        answers.failures.push({ connection: `${connection.name} (erp-${connection.id})`, error: error.message, items: own.length });
        for (const item of own) {
          answers.cleared.delete(item.invoiceId);
          answers.unknown.delete(item.invoiceId);
          answers.unreachable.set(item.invoiceId, error.message);
        }
      }
    }
    return answers;
  }

  private async askConnection(connection: ErpConnection, items: PulledItem[], requestIdPrefix: string, answers: ClearingAnswers) {
    const mapping = effectiveMapping(connection.mapping);
    const m = mapping.receivables;
    const path = `${connection.servicePaths.receivables.replace(/\/+$/, '')}/${m.entity_set}`;
    const select = selectedProperties(mapping).receivables;
    const client = this.clients.create(connection, { requestIdPrefix, retries: RETRIES });
    try {
      for (let i = 0; i < items.length; i += KEYS_PER_REQUEST) {
        const asked = new Map<string, PulledItem>();
        const clauses: string[] = [];
        for (const item of items.slice(i, i + KEYS_PER_REQUEST)) {
          const clause = keyFilter(m.fields.external_id, item);
          // A key that does not fit the mapping cannot be asked for: like an item the ERP does not know.
          if (!clause) answers.unknown.set(item.invoiceId, item.externalId);
          else {
            asked.set(item.externalId.toLowerCase(), item);
            clauses.push(clause);
          }
        }
        if (clauses.length === 0) continue;
        const found = new Set<string>();
        const query = { select, filter: and(m.filter, clauses.join(' or ')), orderby: m.key };
        for await (const page of client.pages(path, query, { pageSize: connection.pageSize, keyFields: m.key })) {
          for (const record of page.records) {
            const mapped = mapItem(record, m, connection.currency);
            const key = ('row' in mapped ? mapped.row.externalId : mapped.key).toLowerCase();
            found.add(key);
            const item = asked.get(key);
            if (item && 'row' in mapped && mapped.row.cleared) answers.cleared.set(item.invoiceId, mapped.row);
          }
        }
        for (const [key, item] of asked) if (!found.has(key)) answers.unknown.set(item.invoiceId, item.externalId);
      }
    } finally {
      await client.close();
    }
  }
}
