// The rows of the shipments page: each flagged shipment with its parties, the reason group it belongs
// to, and the form value that names its document (inv-… or inv-…/rem-…) for retry and fix.
import { parsePublicId, toPublicId } from '../../common/ids.js';
import type { Shipment } from '../../shipping/shipments/shipment.js';
import { documentKey, type ShipmentParties } from './exceptions.repository.js';

export const GROUPS = ['unknownMode', 'noEmail', 'emailFailed', 'postFailed', 'other'] as const;
export type Group = (typeof GROUPS)[number];

export interface AttentionRow {
  shipment: Shipment;
  parties: ShipmentParties | undefined;
  group: Group;
  /** The form value naming the document: inv-… or inv-…/rem-…. */
  document: string;
}

/** What the user can fix on the page for a group: the e-mail address, the postal address, or nothing here. */
export const FIXES: Record<Group, ReadonlyArray<'email' | 'address'>> = {
  unknownMode: [],
  noEmail: ['email'],
  emailFailed: ['email'],
  postFailed: ['address'],
  other: ['email', 'address'],
};

export function groupOf(shipment: Shipment): Group {
  if (shipment.shippingMode === 'unknown') return 'unknownMode';
  if (shipment.attention?.includes('no e-mail address')) return 'noEmail';
  if (shipment.emailStatus === 'failed') return 'emailFailed';
  if (shipment.postStatus === 'failed') return 'postFailed';
  return 'other';
}

export function documentValue(invoiceId: string, reminderId: string | null): string {
  return reminderId ? `${toPublicId('inv', invoiceId)}/${toPublicId('rem', reminderId)}` : toPublicId('inv', invoiceId);
}

/** The invoice and reminder a form value names (public ids), or undefined when it is malformed. */
export function parseDocument(value: unknown): { invoice: string; reminder: string | null } | undefined {
  if (typeof value !== 'string') return undefined;
  const [invoice, reminder, ...rest] = value.split('/');
  if (rest.length > 0 || !parsePublicId('inv', invoice)) return undefined;
  if (reminder !== undefined && !parsePublicId('rem', reminder)) return undefined;
  return { invoice, reminder: reminder ?? null };
}

export function attentionRows(shipments: Shipment[], parties: Map<string, ShipmentParties>): AttentionRow[] {
  return shipments.map((shipment) => ({
    shipment,
    parties: parties.get(documentKey(shipment.invoiceId, shipment.reminderId)),
    group: groupOf(shipment),
    document: documentValue(shipment.invoiceId, shipment.reminderId),
  }));
}
