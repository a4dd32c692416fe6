import type { Contact } from '../../contacts/contact.entity.js';
import type { Invoice } from '../../invoices/invoice.entity.js';
import type { Reminder } from '../../invoices/reminder.entity.js';
import { routeOf, sendTimeRefusal } from './route.js';

const contact = (email: string | null) => ({ name: 'Erika', gender: 2, salutation: 0, email }) as Contact;
const withAddress = contact('erika@kunde.de');

describe(routeOf.name, () => {
  it('sends e-mail to the recipients', () => {
    const route = routeOf({ mode: 'email', source: 'company' }, withAddress, []);
    expect(route).toMatchObject({ channels: ['email'], blocked: null, warning: null });
    expect(route.recipients?.to).toEqual([{ name: 'Erika', address: 'erika@kunde.de' }]);
  });

  it('blocks e-mail without any address, naming the field to fix', () => {
    expect(routeOf({ mode: 'email', source: 'invoice' }, contact(null), [])).toMatchObject({ channels: [], blocked: { field: 'contact_id' } });
  });

  it('posts a dual shipment without an address and flags the missing e-mail', () => {
    const route = routeOf({ mode: 'dual_shipping', source: 'customer' }, null, []);
    expect(route).toMatchObject({ channels: ['post'], blocked: null });
    expect(route.warning).toMatch(/no e-mail address/);
  });

  it('blocks an unknown mode', () => {
    expect(routeOf({ mode: 'unknown', source: null }, withAddress, [])).toMatchObject({ channels: [], blocked: { field: 'shipping_mode' } });
  });

  it.each(['post', 'skip_shipping', 'manual_shipping'] as const)('%s needs no e-mail address', (mode) => {
    expect(routeOf({ mode, source: 'invoice' }, null, [])).toMatchObject({ blocked: null, warning: null, recipients: null });
  });
});

describe(sendTimeRefusal.name, () => {
  const invoice = (status: string, openAmount = '100.00') => ({ status, openAmount }) as Invoice;
  const reminder = { reminderStage: 2 } as Reminder;

  it('lets a draft invoice go and stops one that changed meanwhile', () => {
    expect(sendTimeRefusal(invoice('draft'), null)).toBeNull();
    expect(sendTimeRefusal(invoice('duplicate'), null)).toMatch(/duplicate/);
  });

  it('lets a reminder go while its invoice waits for it with money open', () => {
    expect(sendTimeRefusal(invoice('ready_for_reminder2'), reminder)).toBeNull();
    expect(sendTimeRefusal(invoice('paid', '0.00'), reminder)).toBe('the invoice was paid in the meantime');
    expect(sendTimeRefusal(invoice('reminder1_sent'), reminder)).toMatch(/no longer ready_for_reminder2/);
    expect(sendTimeRefusal(invoice('ready_for_reminder2', '0.00'), reminder)).toMatch(/nothing is open/);
  });
});
