// The reasons the service records with an event are English text (they are the API's too). The page
// shows each known one from the catalogue in the user's language; a text it does not know (a reason an
// accountant typed, a refusal from a provider) is shown as it was written.
import type { TFunction } from 'i18next';

interface KnownReason {
  pattern: RegExp;
  key: string;
  /** The catalogue values from the pattern's groups. */
  values?: (match: RegExpExecArray, t: TFunction) => Record<string, string>;
}

const CHANNELS: Record<string, string> = { 'e-mail': 'invoicePage.channel.email', post: 'invoicePage.channel.post' };

const KNOWN: KnownReason[] = [
  { pattern: /^the due date has passed$/, key: 'dueDatePassed' },
  { pattern: /^(\d+) days overdue$/, key: 'daysOverdue', values: (m) => ({ days: m[1] }) },
  { pattern: /^(\d+) days since reminder (\d)$/, key: 'daysSinceReminder', values: (m) => ({ days: m[1], stage: m[2] }) },
  { pattern: /^blocked, or the open amount is below the level minimum$/, key: 'steppedBack' },
  { pattern: /^payment recorded$/, key: 'paymentRecorded' },
  { pattern: /^payment deleted$/, key: 'paymentDeleted' },
  { pattern: /^total changed: covered by the payments$/, key: 'totalCovered' },
  { pattern: /^options\[autosend\]$/, key: 'autosend' },
  { pattern: /^options\[autoskip_shipping\]: shipped by the client$/, key: 'autoskip' },
  { pattern: /^shipping mode skip_shipping: the client ships it$/, key: 'skipShipping' },
  {
    pattern: /^shipped by (e-mail|post)(?: and (e-mail|post))?$/,
    key: 'shippedBy',
    values: (m, t) => ({
      channels: [m[1], m[2]]
        .filter(Boolean)
        .map((c) => t(CHANNELS[c]))
        .join(' + '),
    }),
  },
  { pattern: /^overpaid$/, key: 'overpaid' },
  { pattern: /^the original total is paid; the remainder of the principal left by § 367 BGB/, key: 'restWaived' },
  { pattern: /^the payments no longer reach the original total$/, key: 'waiverNoLongerCovered' },
  { pattern: /^the waived rest was paid after all$/, key: 'waiverPaid' },
  { pattern: /^payment after write-off: fully recovered$/, key: 'recoveredFully' },
  { pattern: /^payment after write-off; the invoice stays written off until fully recovered$/, key: 'recoveredPartly' },
  { pattern: /^a payment changed the principal of days already charged \(§ 367 BGB\)$/, key: 'interestCorrected' },
  {
    pattern: /^default interest up to (\d{4}-\d{2}-\d{2}), the day of the hand-over to debt collection$/,
    key: 'interestHandOver',
    values: (m) => ({ date: m[1] }),
  },
  { pattern: /^nothing was delivered$/, key: 'nothingDelivered' },
  { pattern: /^reminder ([123])$/, key: 'reminderStage', values: (m) => ({ stage: m[1] }) },
  { pattern: /^rejected at approval$/, key: 'rejectedAtApproval' },
  { pattern: /^rejected: (.+)$/s, key: 'rejectedWith', values: (m) => ({ why: m[1] }) },
];

/** The reason in the user's language; `formatDate` turns a YYYY-MM-DD in a reason into the user's form. */
export function localReason(reason: string | null, t: TFunction, formatDate: (value: string) => string): string {
  if (!reason) return '';
  for (const known of KNOWN) {
    const match = known.pattern.exec(reason);
    if (!match) continue;
    const values = known.values?.(match, t) ?? {};
    if (values.date) values.date = formatDate(values.date);
    return t(`invoicePage.reason.${known.key}`, values);
  }
  return reason;
}
