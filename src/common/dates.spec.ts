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
