import { resolveTerms } from './invoice-terms.js';

const today = '2026-11-21';

describe('resolveTerms', () => {
  it('derives the due date from the time for payment', () => {
    expect(resolveTerms({ invoiceDate: '2026-11-01', dueDate: null, timeForPayment: 30 }, today).terms).toEqual({
      invoiceDate: '2026-11-01',
      dueDate: '2026-12-01',
      timeForPayment: 30,
    });
  });
  it('derives the time for payment from the due date', () => {
    expect(resolveTerms({ invoiceDate: '2026-11-01', dueDate: '2026-11-15', timeForPayment: null }, today).terms?.timeForPayment).toBe(14);
  });
  it('defaults to today and 14 days', () => {
    expect(resolveTerms({ invoiceDate: null, dueDate: null, timeForPayment: null }, today).terms).toEqual({
      invoiceDate: today,
      dueDate: '2026-12-05',
      timeForPayment: 14,
    });
  });
  it('refuses a due date before the invoice date', () => {
    expect(resolveTerms({ invoiceDate: '2026-11-10', dueDate: '2026-11-01', timeForPayment: null }, today).errors[0].field).toBe('due_date');
  });
  it('refuses a time for payment that contradicts the dates', () => {
    expect(resolveTerms({ invoiceDate: '2026-11-01', dueDate: '2026-11-15', timeForPayment: 30 }, today).errors[0].field).toBe(
      'time_for_payment',
    );
  });
});
