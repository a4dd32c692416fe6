// What the parts of a pull run (the runner, its streams, the reconciliation) share about the run under
// way, and the small OData helpers they compose their queries with.
import type { ODataClient } from '../../connectors/odata-client.js';
import { dateLiteral } from '../../connectors/odata-wire.js';
import type { ErpConnection, Watermarks } from '../connections/erp-connection.entity.js';
import type { ErpMapping } from '../mapping/erp-mapping.js';
import type { ItemOwner } from './pulled-items.writer.js';
import type { PullRun } from './pull-run.entity.js';
import type { RunTally } from './run-tally.js';

/** The run was declared interrupted (and resumed elsewhere), its connection deleted or its watermarks reset: stop writing. */
export class RunSuperseded extends Error {}

export type Stream = keyof Watermarks;

export interface RunContext {
  run: PullRun;
  runId: string;
  connection: ErpConnection;
  mapping: ErpMapping;
  client: ODataClient;
  tally: RunTally;
  /** Committed watermarks, advanced stream by stream. */
  watermarks: Watermarks;
  /** The connection's watermark generation when the run read it: a reset since then wins. */
  generation: number;
}

/** An OData $filter of the given parts, ANDed (empty ones left out). */
export const and = (...parts: Array<string | null | undefined | false>) =>
  parts
    .filter((p): p is string => Boolean(p))
    .map((p) => `(${p})`)
    .join(' and ');

export const later = (a: string | undefined, b: string | null | undefined) => (!b || (a && a >= b) ? a : b);
export const earlier = (a: string | undefined, b: string | null | undefined) => (!b || (a && a <= b) ? a : b);
export const today = () => new Date().toISOString().slice(0, 10);

export function entityPath(ctx: RunContext, entity: 'customers' | 'receivables', entitySet: string): string {
  return `${ctx.connection.servicePaths[entity].replace(/\/+$/, '')}/${entitySet}`;
}

export function literal(ctx: RunContext, date: string): string {
  return dateLiteral(ctx.connection.odataVersion, date);
}

/** Whose pulled items a batch writes: the run's company, connection and run. */
export function itemOwner(ctx: RunContext): ItemOwner {
  return { companyId: ctx.connection.companyId, connectionId: ctx.connection.id, runId: ctx.run.id, runPublicId: ctx.runId };
}
