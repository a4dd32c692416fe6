import { allocation, charges, isSettled, moneyFields } from './money.js';

describe('invoice money', () => {
  it('sums the charges beyond the principal exactly, zero parts or not', () => {
    const state = { originalTotal: '100.00', reminderFees: '0.00', flatFee: '40.00', defaultInterest: '0.35', paidAmount: '0.00' };
    expect(charges(state).toFixed(2)).toBe('40.35');
    expect(charges({ ...state, reminderFees: 5, flatFee: '0', defaultInterest: undefined }).toFixed(2)).toBe('5.00');
    expect(
      charges({ originalTotal: '1.00', reminderFees: '0.00', paidAmount: '0.00', flatFee: '0.00', defaultInterest: '0.00' }).isZero(),
    ).toBe(true);
  });

  it('computes the open amount exactly', () => {
    expect(moneyFields({ originalTotal: '0.1', reminderFees: '0.2', paidAmount: '0' }).openAmount).toBe('0.30');
    expect(moneyFields({ originalTotal: '119.00', reminderFees: '5.00', paidAmount: '24.00' })).toEqual({
      originalTotal: '119.00',
      reminderFees: '5.00',
      defaultInterest: '0.00',
      flatFee: '0.00',
      paidAmount: '24.00',
      waivedAmount: '0.00',
      openAmount: '100.00',
    });
  });

  it('settles costs, then interest, then principal (BGB § 367)', () => {
    const split = (paidAmount: string) => {
      const a = allocation({ originalTotal: '100', reminderFees: '5', flatFee: '40', defaultInterest: '1.23', paidAmount });
      return [a.costsPaid.toFixed(2), a.interestPaid.toFixed(2), a.principalPaid.toFixed(2)];
    };
    expect(split('3')).toEqual(['3.00', '0.00', '0.00']);
    expect(split('46')).toEqual(['45.00', '1.00', '0.00']);
    expect(split('50')).toEqual(['45.00', '1.23', '3.77']);
  });

  it('counts interest accrued but not yet charged as interest owed (BGB § 367)', () => {
    const state = { originalTotal: '100', reminderFees: '5', flatFee: '40', defaultInterest: '1.23', paidAmount: '50' };
    const a = allocation(state, '2.00');
    expect([a.costsPaid.toFixed(2), a.interestPaid.toFixed(2), a.principalPaid.toFixed(2)]).toEqual(['45.00', '3.23', '1.77']);
  });

  it('counts interest and the flat fee into the open amount', () => {
    const fields = moneyFields({
      originalTotal: '100',
      reminderFees: '2.5',
      defaultInterest: '0.87',
      flatFee: '40',
      paidAmount: '10',
      waivedAmount: '0',
    });
    expect(fields.openAmount).toBe('133.37');
  });

  it('shows an overpayment as a negative open amount and counts it as settled', () => {
    const fields = moneyFields({ originalTotal: '100', reminderFees: '0', paidAmount: '120' });
    expect(fields.openAmount).toBe('-20.00');
    expect(isSettled(fields)).toBe(true);
    expect(isSettled(moneyFields({ originalTotal: '100', reminderFees: '0', paidAmount: '99.99' }))).toBe(false);
  });
});
