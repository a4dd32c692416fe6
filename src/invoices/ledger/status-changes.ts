// What a status change writes, defined once: the target from the transition table (invoice-status.ts)
// and the side effects below, as data. From them come the single-invoice change (InvoiceTransitions)
// and the set-based SQL that moves many invoices in one statement (the dunning run, the ERP pull).
import type { Invoice } from '../invoice.entity.js';
import { type InvoiceAction, type InvoiceStatus, nextStatus, TRANSITIONS } from '../invoice-status.js';

type EffectValue = 'from_status' | 'cleared' | 'now';

/** The columns a status change writes besides the status, by the transition's target. */
export const STATUS_EFFECTS: ReadonlyArray<{ to: InvoiceStatus | 'previous'; column: string; property: 'statusBeforePaid' | 'writtenOffAt'; value: EffectValue }> = [
  // A paid invoice remembers where it came from: a deleted payment (reopen) goes back there.
  { to: 'paid', column: 'status_before_paid', property: 'statusBeforePaid', value: 'from_status' },
  // A reopened invoice is back where it was and forgets it.
  { to: 'previous', column: 'status_before_paid', property: 'statusBeforePaid', value: 'cleared' },
  { to: 'written_off', column: 'written_off_at', property: 'writtenOffAt', value: 'now' },
];

const effectsOf = (action: InvoiceAction) => STATUS_EFFECTS.filter((e) => e.to === TRANSITIONS[action].to);

/** The changes of one invoice's row for the action (checked against the table: a 409 when not allowed). */
export function statusChanges(action: InvoiceAction, invoice: Pick<Invoice, 'status' | 'statusBeforePaid'>, now = new Date()): Partial<Invoice> & { status: InvoiceStatus } {
  const changes: Partial<Invoice> & { status: InvoiceStatus } = { status: nextStatus(action, invoice.status, invoice.statusBeforePaid) };
  for (const effect of effectsOf(action)) {
    if (effect.property === 'statusBeforePaid') changes.statusBeforePaid = effect.value === 'from_status' ? invoice.status : null;
    else changes.writtenOffAt = now;
  }
  return changes;
}

const literal = (status: InvoiceStatus) => `'${status}'`;

/**
 * The SET list of the action over many rows (without updated_at). `before` is the alias whose `status`
 * and `status_before_paid` are the rows' values before the change; `target` overrides the status
 * expression (a CASE that takes some rows one transition further, see setBasedMoveSql).
 */
export function statusSetSql(action: InvoiceAction, before: string, target?: string): string {
  const { from, to } = TRANSITIONS[action];
  // A reopened invoice whose earlier status is unknown goes where nextStatus sends it.
  const status = target ?? (to === 'previous' ? `coalesce(${before}.status_before_paid, ${literal(nextStatus(action, from[0], null))})` : literal(to));
  const sets = [`status = ${status}`];
  for (const effect of effectsOf(action)) {
    sets.push(`${effect.column} = ${effect.value === 'from_status' ? `${before}.status` : effect.value === 'now' ? 'now()' : 'NULL'}`);
  }
  return sets.join(', ');
}

/** The statuses the action is allowed from (a parameter of the set-based statements). */
export function sourceStatuses(action: InvoiceAction): readonly InvoiceStatus[] {
  return TRANSITIONS[action].from;
}

/**
 * The status_changed events of moved rows: `rows` yields id, from_status, to_status; `values` are the
 * SQL of actor type, actor id, reason and (optionally) details. The company is always $1.
 */
export function statusEventsSql(rows: string, values: { actorType: string; actorId: string; reason: string; details?: string }): string {
  const details = values.details ? ', details' : '';
  return `INSERT INTO invoice_events (company_id, invoice_id, kind, from_status, to_status, actor_type, actor_id, reason${details})
         SELECT $1, id, 'status_changed', from_status, to_status, ${values.actorType}, ${values.actorId}, ${values.reason}${values.details ? `, ${values.details}` : ''}
           FROM ${rows}`;
}
