import { AppError } from '../common/errors.js';
import { canApply, INVOICE_STATUSES, type InvoiceAction, nextStatus, OPEN_STATUSES, TRANSITIONS } from './invoice-status.js';

describe('invoice transition table', () => {
  const expected: Record<InvoiceAction, string[]> = {
    release: ['draft'],
    archive: ['draft', 'paid', 'written_off'],
    mark_duplicate: ['draft', 'sent'],
    write_off: [...OPEN_STATUSES],
    settle: ['draft', ...OPEN_STATUSES, 'written_off'],
    reopen: ['paid'],
    send_reminder1: ['ready_for_reminder1'],
    send_reminder2: ['ready_for_reminder2'],
    send_reminder3: ['ready_for_reminder3'],
    become_due: ['sent'],
    ready_for_reminder1: ['due'],
    ready_for_reminder2: ['reminder1_sent'],
    ready_for_reminder3: ['reminder2_sent'],
    step_back1: ['ready_for_reminder1'],
    step_back2: ['ready_for_reminder2'],
    step_back3: ['ready_for_reminder3'],
    ready_for_collection: ['reminder3_sent'],
    hand_to_collection: ['ready_for_dept_collection'],
  };

  it.each(Object.keys(TRANSITIONS) as InvoiceAction[])('%s is allowed exactly from its source statuses', (action) => {
    for (const status of INVOICE_STATUSES) {
      expect([status, canApply(action, status)]).toEqual([status, expected[action].includes(status)]);
    }
  });

  it('moves to the target status', () => {
    expect(nextStatus('release', 'draft', null)).toBe('sent');
    expect(nextStatus('write_off', 'reminder2_sent', null)).toBe('written_off');
    expect(nextStatus('settle', 'due', null)).toBe('paid');
    expect(nextStatus('archive', 'paid', null)).toBe('archived');
    expect(nextStatus('mark_duplicate', 'sent', null)).toBe('duplicate');
  });

  it('reopens a paid invoice to the status it left', () => {
    expect(nextStatus('reopen', 'paid', 'reminder1_sent')).toBe('reminder1_sent');
  });

  it('refuses a transition from a status outside the table with a 409 naming the allowed ones', () => {
    try {
      nextStatus('write_off', 'paid', null);
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(409);
      expect((error as AppError).extensions.allowed_from).toEqual(OPEN_STATUSES);
    }
  });
});
