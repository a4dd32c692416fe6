import type { Invoice } from '../../invoices/invoice.entity.js';
import type { InvoiceView } from '../../invoices/invoice.serializer.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import type { Shipment, ShipmentStatus } from '../../shipping/shipments/shipment.js';
import { canShipAgain, changedValues, currentValues, editable, shippingOffers } from './invoice-operations.js';

const invoice = (fields: Partial<Invoice> = {}) =>
  ({
    status: 'draft',
    invoiceNumber: 'RE-1',
    additionalNumber: null,
    externalId: null,
    invoiceDate: '2026-11-10',
    dueDate: '2026-11-24',
    originalTotal: '1190.00',
    openAmount: '1190.00',
    ...fields,
  }) as Invoice;
const reminder = { id: 'r1', reminderStage: 1, dispatchedAt: new Date() } as Reminder;
const view = (fields: Partial<Invoice> = {}) => ({ invoice: invoice(fields), reminders: [reminder] }) as unknown as InvoiceView;
const shipment = (status: ShipmentStatus, reminderId: string | null = 'r1') => ({ status, reminderId }) as Shipment;

describe('the invoice page’s operations', () => {
  it('offers the edit form’s fields the status still allows', () => {
    expect(editable(invoice())).toEqual(['invoice_number', 'additional_number', 'external_id', 'invoice_date', 'due_date', 'total']);
    expect(editable(invoice({ status: 'sent' }))).toEqual(['invoice_number', 'additional_number', 'external_id', 'due_date']);
    expect(editable(invoice({ status: 'reminder1_sent' }))).toEqual(['invoice_number', 'additional_number', 'external_id']);
    expect(editable(invoice({ status: 'archived' }))).toEqual(['additional_number', 'external_id']);
  });

  it('sends only the posted fields that differ from the invoice, the total in the user’s notation', () => {
    const current = currentValues(invoice(), 'de');
    expect(current.total).toBe('1190,00');
    expect(changedValues({ ...current, due_date: '2026-12-01', invoice_number: ' RE-1 ' }, current)).toEqual({ due_date: '2026-12-01' });
    expect(changedValues({ external_id: '' }, current)).toEqual({});
    expect(changedValues({ invoice_number: '' }, current)).toEqual({ invoice_number: '' });
  });

  it('offers a shipping step only when the shipping service would take it', () => {
    const ready = view({ status: 'ready_for_reminder1' });
    expect(canShipAgain(ready, [shipment('failed')], 'r1')).toBe(true);
    expect(canShipAgain(ready, [shipment('failed'), shipment('pending')], 'r1')).toBe(false);
    expect(canShipAgain(ready, [], 'r1')).toBe(false);
    expect(canShipAgain(view({ status: 'paid' }), [shipment('failed')], 'r1')).toBe(false);
    const offers = shippingOffers(ready, [shipment('awaiting_confirmation')], []);
    expect([...offers.confirmReminder]).toEqual(['r1']);
    expect(offers.confirmInvoice).toBe(false);
    expect(shippingOffers(view(), [shipment('awaiting_confirmation', null)], []).confirmInvoice).toBe(true);
  });
});
