// Which mails the SMTP server got more than once, and which second copies the at-least-once guarantee
// explains (README "Delivery guarantee"): a mail the killed replica had handed over before it died, its
// record uncommitted, sent again by a live replica under the same Message-ID. Every other second copy is a
// double send.
import type { ReceivedMail } from '../support/smtp.js';

export interface Kill {
  /** The killed replica's name; it gives `<name>.cluster.test` in EHLO (test/cluster/replicas.ts). */
  replica: string;
  /**
   * When it was started again. Every mail from it received before then was sent by the process the kill cut
   * off: one whose last bytes were on their way at the kill reaches the sink's handler after it (2026-11-28,
   * CI: "Rechnung C-18" counted as sent twice otherwise when the sink's time was taken after the kill's).
   */
  restartedAt: number;
}

export interface MailCopies {
  /** Subjects of the mails sent again after the kill had cut off the first copy's record. */
  resent: string[];
  /** Message-IDs and subjects that arrived twice otherwise. */
  twiceById: string[];
  twiceBySubject: string[];
}

export function mailCopies(received: ReceivedMail[], kill: Kill): MailCopies {
  const cutByKill = (mail: ReceivedMail) => mail.heloName === `${kill.replica}.cluster.test` && mail.receivedAt < kill.restartedAt;
  const resent = [...groupBy(received, messageIdOf).values()].filter(
    (copies) => copies.length === 2 && copies.filter(cutByKill).length === 1,
  );
  const counted = received.filter((mail) => !(cutByKill(mail) && resent.some((copies) => copies.includes(mail))));
  return {
    resent: resent.map(([mail]) => mail.parsed.subject ?? '(none)'),
    twiceById: twice(groupBy(counted, messageIdOf)),
    twiceBySubject: twice(groupBy(counted, (m) => m.parsed.subject ?? '(none)')),
  };
}

export function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const messageIdOf = (mail: ReceivedMail) => mail.parsed.messageId ?? '(none)';
const twice = (groups: Map<string, ReceivedMail[]>) => [...groups.entries()].filter(([, copies]) => copies.length > 1).map(([key]) => key);
