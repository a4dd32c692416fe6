import { resolveChangedTerms, resolveTerms } from './invoice-terms.js';

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
    expect(resolveTerms({ invoiceDate: '2026-11-10', dueDate: '2026-11-01', timeForPayment: null }, today).errors[0].field).toBe(
      'due_date',
    );
  });
  it('refuses a time for payment that contradicts the dates', () => {
    expect(resolveTerms({ invoiceDate: '2026-11-01', dueDate: '2026-11-15', timeForPayment: 30 }, today).errors[0].field).toBe(
      'time_for_payment',
    );
  });
  it('derives the invoice date from the due date and the time for payment', () => {
    expect(resolveTerms({ invoiceDate: null, dueDate: '2026-12-15', timeForPayment: 14 }, today).terms).toEqual({
      invoiceDate: '2026-12-01',
      dueDate: '2026-12-15',
      timeForPayment: 14,
    });
  });
});

describe('resolveChangedTerms', () => {
  it('keeps an invoice without an invoice date without one when only the due date changes', () => {
    expect(resolveChangedTerms({ invoiceDate: null, dueDate: '2026-12-15', timeForPayment: null }, today).terms).toEqual({
      invoiceDate: null,
      dueDate: '2026-12-15',
      timeForPayment: null,
    });
  });
  it('refuses a time for payment with no invoice date to count from', () => {
    expect(resolveChangedTerms({ invoiceDate: null, dueDate: null, timeForPayment: 30 }, today).errors[0].field).toBe('time_for_payment');
  });
  it('derives the invoice date when due date and time for payment come together, and resolves as on create otherwise', () => {
    expect(resolveChangedTerms({ invoiceDate: null, dueDate: '2026-12-15', timeForPayment: 14 }, today).terms?.invoiceDate).toBe(
      '2026-12-01',
    );
    expect(resolveChangedTerms({ invoiceDate: '2026-11-01', dueDate: null, timeForPayment: 30 }, today).terms?.dueDate).toBe('2026-12-01');
  });
});
