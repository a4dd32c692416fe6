// Status changes of many invoices in one statement, generated from the transition table and its side
// effects (status-changes.ts): the dunning run's steps and the ERP pull's settle and reopen (PullLedger).
// The statements carry `ledger.*` names; where the selection is another feature's rule (the dunning
// run's conditions over the invoice `i`), that feature declares the statement with the text made here,
// so what is written to the invoices and their events stays the ledger's.
import { type InvoiceAction, simpleTransition } from '../invoice-status.js';
import { statusEventsSql, statusSetSql } from './status-changes.js';

/** A step of the dunning run: which invoices move, and optionally a second transition for some of them at once. */
export interface SetBasedMove {
  action: InvoiceAction;
  /** SQL over the invoice `i` ($1 company, $2 run, $3 business date). */
  condition: string;
  hop?: { action: InvoiceAction; condition: string };
  /** A proposal names the moved invoices; a run only counts them. */
  withIds: boolean;
}

export interface SetBasedMoveRow {
  ids: string[];
  n: number;
  hop_ids: string[];
  hop_n: number;
}

/**
 * Moves the company's invoices of the action's source status that meet the condition, with their
 * events (actor: the run $2, reason $4, the hop's reason $5), and answers the counts (and ids).
 * The UPDATE … RETURNING sits in a CTE under a SELECT: the rows' counts come back as one row.
 */
export function setBasedMoveSql({ action, condition, hop, withIds }: SetBasedMove): string {
  const { from, to } = simpleTransition(action);
  const next = hop ? simpleTransition(hop.action) : undefined;
  if (hop && next?.from !== to) throw new Error(`${hop.action} does not continue ${action}`);
  if (hop && statusSetSql(hop.action, 'i') !== `status = '${next?.to}'`) throw new Error(`${hop.action} has side effects a hop cannot apply`);
  const target = hop && next ? `CASE WHEN ${hop.condition} THEN '${next.to}' ELSE '${to}' END` : undefined;
  const hopEvents = hop && next ? `UNION ALL SELECT id, '${to}', '${next.to}', $5::text, 2 FROM moved WHERE status = '${next.to}'` : '';
  const result = withIds
    ? `SELECT coalesce(array_agg(id), '{}') AS ids, count(*)::int AS n, coalesce(array_agg(id) FILTER (WHERE status <> '${to}'), '{}') AS hop_ids,
                count(*) FILTER (WHERE status <> '${to}')::int AS hop_n FROM moved`
    : `SELECT '{}'::uuid[] AS ids, count(*)::int AS n, '{}'::uuid[] AS hop_ids, count(*) FILTER (WHERE status <> '${to}')::int AS hop_n FROM moved`;
  const events = statusEventsSql(
    `(SELECT id, '${from}'::text AS from_status, '${to}'::text AS to_status, $4::text AS reason, 1 AS hop FROM moved ${hopEvents}) e
          ORDER BY hop`,
    { actorType: `'run'`, actorId: '$2', reason: 'reason' },
  );
  return `WITH moved AS (
         UPDATE invoices i SET ${statusSetSql(action, 'i', target)}, updated_at = now()
          WHERE i.company_id = $1 AND i.status = '${from}' AND ${condition}
         RETURNING i.id, i.status
       ), logged AS (
         ${events}
       )
       ${result}`;
}

/**
 * Moves the company's invoices that meet `match` (over `i`; $4 holds the caller's keys) from any
 * source status of the action ($3, sourceStatuses()), locked in id order, with their events (actor
 * `actorType` $2, reason $5, details $6). Answers how many moved.
 */
export function setBasedTransitionSql(action: InvoiceAction, match: string, actorType: string): string {
  return `WITH target AS (
         SELECT i.id, i.status, i.status_before_paid FROM invoices i
          WHERE i.company_id = $1 AND i.status = ANY ($3::text[]) AND ${match}
          ORDER BY i.id
            FOR UPDATE
       ),
       moved AS (
         UPDATE invoices i SET ${statusSetSql(action, 't')}, updated_at = now()
           FROM target t WHERE i.company_id = $1 AND i.id = t.id
         RETURNING i.id, t.status AS from_status, i.status AS to_status
       ),
       events AS (
         ${statusEventsSql('moved', { actorType: `'${actorType}'`, actorId: '$2', reason: '$5', details: '$6::jsonb' })}
       )
       SELECT count(*)::int AS moved FROM moved`;
}
