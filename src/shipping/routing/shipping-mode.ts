// Which way a document goes out: the first level that names a mode wins — reminder, invoice, customer,
// company — and `unknown` (or nothing) hands on to the next level. Unknown at every level: not shipped.
import { INVOICE_SHIPPING_MODES, type InvoiceShippingMode } from '../../invoices/invoice.entity.js';

export const SHIPPING_MODES = INVOICE_SHIPPING_MODES;
export type ShippingMode = InvoiceShippingMode;
export type ModeSource = 'reminder' | 'invoice' | 'customer' | 'company';
export type Channel = 'email' | 'post';

/** The levels in the order they are asked; absent levels (no reminder) are left out. */
export const MODE_LEVELS: readonly ModeSource[] = ['reminder', 'invoice', 'customer', 'company'];

export type ModeSettings = Partial<Record<ModeSource, string | null | undefined>>;

export type Resolution =
  | { mode: Exclude<ShippingMode, 'unknown'>; source: ModeSource }
  | { mode: 'unknown'; source: null };

function isMode(value: string | null | undefined): value is ShippingMode {
  return (SHIPPING_MODES as readonly string[]).includes(value ?? '');
}

export function resolveShippingMode(settings: ModeSettings): Resolution {
  for (const source of MODE_LEVELS) {
    const value = settings[source];
    if (isMode(value) && value !== 'unknown') return { mode: value, source };
  }
  return { mode: 'unknown', source: null };
}

/**
 * The levels asked for a document. For a reminder, the invoice's skip_shipping is left out: it says
 * that the client shipped the invoice itself (options[autoskip_shipping]), and such an invoice enters
 * the service's dunning cycle, so its reminders go out the way the customer or company says.
 */
export function modeLevelsFor(levels: { reminder?: string | null; invoice: string | null; customer: string | null; company: string | null }, document: 'invoice' | 'reminder'): ModeSettings {
  if (document === 'invoice') return { invoice: levels.invoice, customer: levels.customer, company: levels.company };
  return { reminder: levels.reminder, invoice: levels.invoice === 'skip_shipping' ? null : levels.invoice, customer: levels.customer, company: levels.company };
}

/** The channels a mode delivers through; skip and manual shipping have none (the client ships). */
export function channelsOf(mode: ShippingMode): Channel[] {
  switch (mode) {
    case 'email':
      return ['email'];
    case 'post':
      return ['post'];
    case 'dual_shipping':
      return ['email', 'post'];
    case 'skip_shipping':
    case 'manual_shipping':
    case 'unknown':
      return [];
    default:
      return assertNever(mode);
  }
}

function assertNever(value: never): never {
  throw new Error(`unhandled shipping mode ${String(value)}`);
}
