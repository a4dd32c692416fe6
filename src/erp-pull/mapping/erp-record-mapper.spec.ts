import { effectiveMapping, SAP_MAPPING, selectedProperties } from './erp-mapping.js';
import { mapItem, mapPartner } from './erp-record-mapper.js';

const item = (overrides: Record<string, unknown> = {}) => ({
  CompanyCode: '1010',
  FiscalYear: '2026',
  AccountingDocument: '1800000012',
  AccountingDocumentItem: '001',
  Customer: '17100001',
  FinancialAccountType: 'D',
  IsCleared: false,
  AmountInTransactionCurrency: '1190.500',
  TransactionCurrency: 'EUR',
  DocumentDate: '2026-01-31T00:00:00.000Z',
  PostingDate: '2026-02-01T00:00:00.000Z',
  NetDueDate: '2026-03-02T00:00:00.000Z',
  ClearingDate: null,
  ClearingAccountingDocument: '',
  DocumentReferenceID: 'RE-4711',
  BillingDocument: '90000012',
  DunningBlockingReason: '',
  LastChangeDate: '2026-02-03T00:00:00.000Z',
  ...overrides,
});

describe('ERP record mapping', () => {
  const { customers, receivables } = SAP_MAPPING;

  it('maps an open receivable item to an invoice row', () => {
    expect(mapItem(item(), receivables, 'EUR')).toEqual({
      row: {
        externalId: '1010-2026-1800000012-001',
        customer: '17100001',
        invoiceNumber: 'RE-4711',
        additionalNumber: '90000012',
        total: '1190.50',
        invoiceDate: '2026-01-31',
        dueDate: '2026-03-02',
        timeForPayment: 30,
        dunningBlock: null,
        cleared: false,
        clearingDocument: null,
        clearingDate: null,
        changeDate: '2026-02-03',
        erpKey: '["1010","2026","1800000012","001"]',
      },
    });
  });

  it('keeps numeric key values as numbers for asking the ERP by key, and maps without a change-date field', () => {
    const mapping = { ...receivables, change_date: null, clearing_date: null, fields: { ...receivables.fields, external_id: ['CompanyCode', 'Item'] } };
    expect(mapItem({ ...item(), Item: 7 }, mapping, 'EUR')).toMatchObject({ row: { externalId: '1010-7', erpKey: '["1010",7]', changeDate: null, clearingDate: null } });
  });

  it('falls back to posting date, accounting document and the invoice date where fields are empty', () => {
    const mapped = mapItem(item({ DocumentDate: null, DocumentReferenceID: '', NetDueDate: null, DunningBlockingReason: 'A' }), receivables, 'EUR');
    expect(mapped).toMatchObject({ row: { invoiceDate: '2026-02-01', dueDate: '2026-02-01', timeForPayment: 0, invoiceNumber: '1800000012', dunningBlock: 'ERP dunning block A' } });
  });

  it('reads cleared items (also the gateway spelling "X")', () => {
    expect(mapItem(item({ IsCleared: 'X', ClearingDate: '2026-02-10', ClearingAccountingDocument: '1400000001' }), receivables, 'EUR')).toMatchObject({
      row: { cleared: true, clearingDocument: '1400000001', clearingDate: '2026-02-10' },
    });
  });

  it('skips credits and other currencies, fails broken records with a reason', () => {
    expect(mapItem(item({ AmountInTransactionCurrency: '-50.000' }), receivables, 'EUR')).toEqual({ skip: 'not a receivable (credit or zero amount)', key: '1010-2026-1800000012-001' });
    expect(mapItem(item({ TransactionCurrency: 'USD' }), receivables, 'EUR')).toMatchObject({ skip: "currency USD is not the connection's EUR" });
    expect(mapItem(item({ AmountInTransactionCurrency: '1.005' }), receivables, 'EUR')).toMatchObject({ failure: 'amount 1.005 has more than 2 decimal places' });
    expect(mapItem(item({ AmountInTransactionCurrency: 'abc' }), receivables, 'EUR')).toMatchObject({ failure: 'amount "abc" is not a decimal number (AmountInTransactionCurrency)' });
    expect(mapItem(item({ Customer: '' }), receivables, 'EUR')).toMatchObject({ failure: 'no customer (Customer)', changeDate: '2026-02-03' });
    expect(mapItem(item({ AccountingDocumentItem: '' }), receivables, 'EUR')).toMatchObject({ failure: expect.stringMatching(/^incomplete key/) });
  });

  it('never reads decimals through binary floats', () => {
    expect(mapItem(item({ AmountInTransactionCurrency: '9999999999.990' }), receivables, 'EUR')).toMatchObject({ row: { total: '9999999999.99' } });
    expect(mapItem(item({ AmountInTransactionCurrency: 0.1 + 0.2 }), receivables, 'EUR')).toMatchObject({ failure: expect.stringMatching(/more than 2 decimal places/) });
  });

  it('reads plain and unusual amount spellings alike (the fast path and decimal.js agree)', () => {
    const total = (amount: unknown) => mapItem(item({ AmountInTransactionCurrency: amount }), receivables, 'EUR');
    expect(total('0012.5')).toMatchObject({ row: { total: '12.50' } });
    expect(total('12.3400')).toMatchObject({ row: { total: '12.34' } });
    expect(total('7')).toMatchObject({ row: { total: '7.00' } });
    expect(total('0.010')).toMatchObject({ row: { total: '0.01' } });
    expect(total(' 7.5 ')).toMatchObject({ row: { total: '7.50' } });
    expect(total('+7.5')).toMatchObject({ row: { total: '7.50' } });
    expect(total(12.5)).toMatchObject({ row: { total: '12.50' } });
    expect(total('999999999999.99')).toMatchObject({ row: { total: '999999999999.99' } });
    expect(total('1000000000000')).toMatchObject({ failure: 'amount "1000000000000" is out of range' });
    expect(total('12.345')).toMatchObject({ failure: 'amount 12.345 has more than 2 decimal places' });
    expect(total('0.000')).toMatchObject({ skip: 'not a receivable (credit or zero amount)' });
    expect(mapItem(item({ AmountInTransactionCurrency: '12.50', TransactionCurrency: 'USD' }), receivables, 'EUR')).toMatchObject({ skip: "currency USD is not the connection's EUR" });
  });

  it('maps a business partner with its first address, e-mail and phone', () => {
    const partner = {
      BusinessPartner: '10000001',
      Customer: '17100001',
      BusinessPartnerFullName: '',
      OrganizationBPName1: 'Muster GmbH',
      LastChangeDate: null,
      CreationDate: '2025-06-01T00:00:00.000Z',
      to_BusinessPartnerAddress: [
        { StreetName: 'Hauptstraße', HouseNumber: '5a', PostalCode: '10115', CityName: 'Berlin', Country: 'de', to_EmailAddress: [{ EmailAddress: 'ap@muster.example' }], to_PhoneNumber: [] },
        { StreetName: 'Other', Country: 'FR' },
      ],
    };
    expect(mapPartner(partner, customers)).toEqual({
      row: { externalId: '17100001', name: 'Muster GmbH', street: 'Hauptstraße 5a', zip: '10115', city: 'Berlin', country: 'DE', phone: null, email: 'ap@muster.example', additionalNumber: '10000001', changeDate: '2025-06-01' },
    });
    expect(mapPartner({ ...partner, to_BusinessPartnerAddress: [] }, customers)).toMatchObject({ failure: expect.stringMatching(/^no ISO country code/), key: '10000001' });
  });

  it('lays a connection\'s overrides over the SAP defaults and selects exactly what it reads', () => {
    const mapping = effectiveMapping({ customers: { entity_set: 'ZCUSTOMER', fields: { external_id: 'Kunnr', name: ['Name1'] } } });
    expect(mapping.customers.entity_set).toBe('ZCUSTOMER');
    expect(mapping.customers.fields.city).toBe('to_BusinessPartnerAddress/CityName');
    expect(mapping.receivables).toEqual(SAP_MAPPING.receivables);
    expect(selectedProperties(SAP_MAPPING).receivables).toEqual(
      expect.arrayContaining(['CompanyCode', 'LastChangeDate', 'ClearingDate', 'AmountInTransactionCurrency', 'IsCleared', 'DunningBlockingReason']),
    );
  });
});
