import { lang } from '../i18n.js';
import { localReason } from './event-reasons.js';

describe('event reasons in the user’s language', () => {
  const de = lang('de', 'Europe/Berlin');
  const en = lang('en', 'Europe/Berlin');
  const local = (reason: string | null, l = de) => localReason(reason, l.t, l.date);

  it('gives the reasons the service records a German text, with their numbers and dates', () => {
    expect(local('payment recorded')).toBe('Zahlung erfasst');
    expect(local('14 days overdue')).toBe('14 Tage überfällig');
    expect(local('10 days since reminder 2')).toBe('10 Tage seit Mahnung 2');
    expect(local('shipped by e-mail and post')).toBe('Versandt per E-Mail + Post');
    expect(local('default interest up to 2026-11-24, the day of the hand-over to debt collection')).toBe(
      'Verzugszinsen bis 24.11.2026, dem Tag der Übergabe an das Inkasso',
    );
    expect(local('rejected: Kunde hat bezahlt')).toBe('Abgelehnt: Kunde hat bezahlt');
  });

  it('and an English one for a user who chose English', () => {
    expect(local('payment deleted', en)).toBe('Payment deleted');
    expect(local('shipped by post', en)).toBe('Shipped by Post');
    expect(local('default interest up to 2026-11-24, the day of the hand-over to debt collection', en)).toBe(
      'Default interest up to 24/11/2026, the day of the hand-over to debt collection',
    );
  });

  it('keeps a text it does not know (a reason someone typed) as it was written', () => {
    expect(local('Kunde bestreitet <die> Lieferung')).toBe('Kunde bestreitet <die> Lieferung');
    expect(local('payment recorded twice')).toBe('payment recorded twice');
    expect(local(null)).toBe('');
  });
});
