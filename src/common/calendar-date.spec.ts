import { addDays, daysBetween, parseCalendarDate, todayIn } from './calendar-date.js';

describe('parseCalendarDate', () => {
  it('reads German and ISO dates', () => {
    expect(parseCalendarDate('21.11.2026')).toBe('2026-11-21');
    expect(parseCalendarDate('2026-11-21')).toBe('2026-11-21');
    expect(parseCalendarDate(' 29.02.2028 ')).toBe('2028-02-29');
  });
  it('refuses dates that do not exist and other formats', () => {
    for (const bad of ['31.02.2026', '29.02.2026', '2026-13-01', '00.01.2026', '1.1.2026', '2026/11/21', '', 'heute']) {
      expect(parseCalendarDate(bad)).toBeUndefined();
    }
    expect(parseCalendarDate(20261121)).toBeUndefined();
  });
  it('counts and adds days across month and year ends', () => {
    expect(addDays('2026-12-20', 14)).toBe('2027-01-03');
    expect(daysBetween('2026-02-20', '2026-03-06')).toBe(14);
  });
  it('tells the date of the company time zone', () => {
    expect(todayIn('Europe/Berlin', new Date('2026-11-21T23:30:00Z'))).toBe('2026-11-22');
  });
});
