import type { Invoice } from '../invoice.entity.js';
import { type InvoiceAction, TRANSITIONS } from '../invoice-status.js';
import { setBasedMoveSql, setBasedTransitionSql } from './set-based-status.js';
import { STATUS_EFFECTS, statusChanges, statusSetSql } from './status-changes.js';

describe('status changes', () => {
  const actions = Object.keys(TRANSITIONS) as InvoiceAction[];

  it('write the same columns for one invoice and for many', () => {
    for (const action of actions) {
      const from = TRANSITIONS[action].from[0];
      const single = Object.keys(statusChanges(action, { status: from, statusBeforePaid: 'due' } as Pick<Invoice, 'status' | 'statusBeforePaid'>)).sort();
      const columns = [...statusSetSql(action, 't').matchAll(/(?:^|, )([a-z_]+) = /g)].map((m) => m[1]);
      const properties = columns.map((c) => (c === 'status' ? 'status' : STATUS_EFFECTS.find((e) => e.column === c)!.property)).sort();
      expect({ action, properties }).toEqual({ action, properties: single });
    }
  });

  it('remember the status before paid, restore and clear it on reopen, and date a write-off', () => {
    const now = new Date('2026-01-02T03:04:05Z');
    expect(statusChanges('settle', { status: 'reminder1_sent', statusBeforePaid: null }, now)).toEqual({ status: 'paid', statusBeforePaid: 'reminder1_sent' });
    expect(statusChanges('reopen', { status: 'paid', statusBeforePaid: 'due' }, now)).toEqual({ status: 'due', statusBeforePaid: null });
    expect(statusChanges('reopen', { status: 'paid', statusBeforePaid: null }, now)).toEqual({ status: 'sent', statusBeforePaid: null });
    expect(statusChanges('write_off', { status: 'due', statusBeforePaid: null }, now)).toEqual({ status: 'written_off', writtenOffAt: now });
    expect(statusSetSql('settle', 't')).toBe(`status = 'paid', status_before_paid = t.status`);
    expect(statusSetSql('reopen', 't')).toBe(`status = coalesce(t.status_before_paid, 'sent'), status_before_paid = NULL`);
    expect(statusSetSql('write_off', 't')).toBe(`status = 'written_off', written_off_at = now()`);
  });

  it('generate the set-based statements from the table', () => {
    expect(setBasedTransitionSql('settle', 'i.open_amount <= 0', 'erp_pull')).toContain(`SET status = 'paid', status_before_paid = t.status, updated_at = now()`);
    const move = setBasedMoveSql({ action: 'become_due', condition: 'true', hop: { action: 'ready_for_reminder1', condition: 'false' }, withIds: false });
    expect(move).toContain(`i.status = 'sent'`);
    expect(move).toContain(`CASE WHEN false THEN 'ready_for_reminder1' ELSE 'due' END`);
    expect(() => setBasedMoveSql({ action: 'become_due', condition: 'true', hop: { action: 'ready_for_reminder2', condition: 'true' }, withIds: false })).toThrow();
  });
});
