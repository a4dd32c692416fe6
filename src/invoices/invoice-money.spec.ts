import { allocation, isSettled, moneyFields } from './invoice-money.js';

describe('invoice money', () => {
  it('computes the open amount exactly', () => {
    expect(moneyFields({ originalTotal: '0.1', reminderFees: '0.2', paidAmount: '0' }).openAmount).toBe('0.30');
    expect(moneyFields({ originalTotal: '119.00', reminderFees: '5.00', paidAmount: '24.00' })).toEqual({
      originalTotal: '119.00',
      reminderFees: '5.00',
      paidAmount: '24.00',
      waivedAmount: '0.00',
      openAmount: '100.00',
    });
  });

  it('settles fees before principal', () => {
    const state = { originalTotal: '100', reminderFees: '5', paidAmount: '3' };
    expect(allocation(state).feesPaid.toFixed(2)).toBe('3.00');
    expect(allocation(state).principalPaid.toFixed(2)).toBe('0.00');
    const more = { ...state, paidAmount: '50' };
    expect(allocation(more).feesPaid.toFixed(2)).toBe('5.00');
    expect(allocation(more).principalPaid.toFixed(2)).toBe('45.00');
  });

  it('shows an overpayment as a negative open amount and counts it as settled', () => {
    const fields = moneyFields({ originalTotal: '100', reminderFees: '0', paidAmount: '120' });
    expect(fields.openAmount).toBe('-20.00');
    expect(isSettled(fields)).toBe(true);
    expect(isSettled(moneyFields({ originalTotal: '100', reminderFees: '0', paidAmount: '99.99' }))).toBe(false);
  });
});
