import { formatDateTime, zoneOffsetMinutes } from './dates.js';
import { formatDecimal, parseDecimal } from './money.js';

describe('formatDateTime', () => {
  it('uses the winter offset of Europe/Berlin', () => {
    expect(formatDateTime(new Date('2026-11-21T19:53:00.456Z'), 'Europe/Berlin')).toBe('2026-11-21T20:53:00+01:00');
  });
  it('uses the summer offset of Europe/Berlin', () => {
    expect(formatDateTime(new Date('2026-07-01T10:00:00Z'), 'Europe/Berlin')).toBe('2026-07-01T12:00:00+02:00');
  });
  it('writes negative offsets and day changes', () => {
    expect(formatDateTime(new Date('2026-01-01T02:30:00Z'), 'America/New_York')).toBe('2025-12-31T21:30:00-05:00');
    expect(zoneOffsetMinutes(new Date('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe(330);
  });
  it('switches offset at the exact second of a DST transition, also when the quarter hour was seen before', () => {
    // Europe/Berlin left summer time on 2026-10-25 at 01:00 UTC.
    for (let pass = 0; pass < 2; pass++) {
      expect(formatDateTime(new Date('2026-10-25T00:59:59Z'), 'Europe/Berlin')).toBe('2026-10-25T02:59:59+02:00');
      expect(formatDateTime(new Date('2026-10-25T01:00:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:00:00+01:00');
    }
  });
  it('agrees with ICU for every quarter hour around the transitions of several zones', () => {
    const mismatches: string[] = [];
    for (const timeZone of ['Europe/Berlin', 'America/St_Johns', 'Australia/Lord_Howe', 'Asia/Kathmandu']) {
      const icu = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
      for (let t = Date.parse('2026-03-01T00:00:00Z'); t < Date.parse('2026-04-15T00:00:00Z'); t += 7 * 60_000) {
        const minutes = zoneOffsetMinutes(new Date(t), timeZone);
        const abs = Math.abs(minutes);
        const text =
          abs === 0
            ? 'GMT'
            : `GMT${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
        const expected = icu.formatToParts(new Date(t)).find((p) => p.type === 'timeZoneName')!.value;
        if (text !== expected) mismatches.push(`${timeZone} ${new Date(t).toISOString()}: ${text} instead of ${expected}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
  it('gives null for a missing instant', () => {
    expect(formatDateTime(null, 'UTC')).toBeNull();
  });
});

describe('decimals', () => {
  it('formats the shortest form with one fractional digit at least', () => {
    expect(formatDecimal('119')).toBe('119.0');
    expect(formatDecimal('12.50')).toBe('12.5');
    expect(formatDecimal('99.99')).toBe('99.99');
    expect(formatDecimal('-0.10')).toBe('-0.1');
  });
  it('parses dot, comma and numbers, and refuses the rest', () => {
    expect(parseDecimal('119,50')?.toFixed(2)).toBe('119.50');
    expect(parseDecimal(119.5)?.toFixed(2)).toBe('119.50');
    expect(parseDecimal('1e5')).toBeUndefined();
    expect(parseDecimal('12.')).toBeUndefined();
    expect(parseDecimal(Number.NaN)).toBeUndefined();
  });
});
