// The cluster's "each e-mail delivered once" check on made-up arrivals: it lets through only the second
// copy that the at-least-once guarantee explains, and fails every other.
import type { ParsedMail } from 'mailparser';
import type { ReceivedMail } from '../support/smtp.js';
import { mailCopies } from './mail-copies.js';

/** r2 killed at 10 s, started again at 20 s. */
const KILL = { replica: 'r2', restartedAt: 20_000 };

function mail(messageId: string, subject: string, replica: string, receivedAt: number): ReceivedMail {
  const parsed = { messageId, subject } as ParsedMail;
  return {
    from: '',
    to: [],
    raw: Buffer.alloc(0),
    parsed,
    secure: true,
    tlsVersion: 'TLSv1.3',
    heloName: `${replica}.cluster.test`,
    receivedAt,
  };
}

describe('cluster check: which second copies of a mail are allowed', () => {
  it('counts nothing twice when every mail came once', () => {
    const copies = mailCopies([mail('<a@x>', 'Rechnung C-1', 'r1', 1), mail('<b@x>', 'Rechnung C-2', 'r2', 2)], KILL);
    expect(copies).toEqual({ resent: [], twiceById: [], twiceBySubject: [] });
  });

  it('allows the copy the killed replica sent before the kill, sent again by a live one under the same Message-ID', () => {
    const copies = mailCopies([mail('<a@x>', 'Rechnung C-17', 'r2', 9_990), mail('<a@x>', 'Rechnung C-17', 'r3', 40_000)], KILL);
    expect(copies).toEqual({ resent: ['Rechnung C-17'], twiceById: [], twiceBySubject: [] });
  });

  it("allows it too when the kill came while the copy's last bytes were on their way (the sink's handler ran after the kill)", () => {
    const copies = mailCopies([mail('<a@x>', 'Rechnung C-18', 'r2', 10_050), mail('<a@x>', 'Rechnung C-18', 'r1', 40_000)], KILL);
    expect(copies).toEqual({ resent: ['Rechnung C-18'], twiceById: [], twiceBySubject: [] });
  });

  it.each([
    ['two live replicas', 'r1', 9_000, 'r3'],
    ['the killed replica after its restart', 'r2', 30_000, 'r1'],
    ['the killed replica twice before the kill', 'r2', 5_000, 'r2'],
  ])('fails a second copy from %s', (_case, firstReplica, firstAt, secondReplica) => {
    const second = secondReplica === 'r2' ? 9_000 : 40_000;
    const copies = mailCopies(
      [mail('<a@x>', 'Rechnung C-17', firstReplica, firstAt), mail('<a@x>', 'Rechnung C-17', secondReplica, second)],
      KILL,
    );
    expect(copies.resent).toEqual([]);
    expect(copies.twiceById).toEqual(['<a@x>']);
  });

  it('fails three copies, and the same subject under a new Message-ID (a second shipment)', () => {
    const three = [
      mail('<a@x>', 'Rechnung C-1', 'r2', 9_000),
      mail('<a@x>', 'Rechnung C-1', 'r1', 40_000),
      mail('<a@x>', 'Rechnung C-1', 'r3', 41_000),
    ];
    expect(mailCopies(three, KILL).twiceById).toEqual(['<a@x>']);
    const again = [mail('<a@x>', 'Rechnung C-1', 'r1', 1), mail('<b@x>', 'Rechnung C-1', 'r3', 2)];
    expect(mailCopies(again, KILL)).toEqual({ resent: [], twiceById: [], twiceBySubject: ['Rechnung C-1'] });
  });
});
