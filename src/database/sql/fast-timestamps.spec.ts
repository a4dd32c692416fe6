// The timestamps read by position must be the instants the general parsers give — postgres-date for a
// row's column, V8's Date for JSON — to the millisecond, and anything else must go to those parsers.
import pg from 'pg';
import { installFastTimestamps, readJsonTimestamp, readTimestamp } from './fast-timestamps.js';

// pg's own parser of timestamptz (postgres-date), taken before anything installs the fast one.
const parseDate = pg.types.getTypeParser(1184, 'text') as (text: string) => Date;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A deterministic spread of instants: every month, odd hours and seconds, fractions of 0–6 digits. */
function* instants(): Generator<{ row: string; json: string }> {
  let seed = 7;
  const next = (max: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % max;
  const offsets = ['+00', '+01', '-05', '+05:30', '-03:30', '+14', '-12', '+00:45'];
  for (let i = 0; i < 5000; i++) {
    const year = [100, 999, 1900, 1969, 1970, 2000, 2024, 2026, 2038, 9999][i % 10];
    const date = `${pad(year, 4)}-${pad(1 + next(12))}-${pad(1 + next(28))}`;
    const time = `${pad(next(24))}:${pad(next(60))}:${pad(next(60))}`;
    const digits = next(7);
    const fraction = digits === 0 ? '' : `.${pad(next(10 ** digits), digits)}`;
    const offset = offsets[i % offsets.length];
    const jsonOffset = offset.length === 3 ? `${offset}:00` : offset;
    yield { row: `${date} ${time}${fraction}${offset}`, json: `${date}T${time}${fraction}${jsonOffset}` };
  }
}

describe('timestamps read by position', () => {
  it('gives what postgres-date gives for a row and V8 for JSON, over 5,000 instants', () => {
    for (const { row, json } of instants()) {
      expect([row, readTimestamp(row)?.getTime()]).toEqual([row, parseDate(row).getTime()]);
      expect([json, readJsonTimestamp(json).getTime()]).toEqual([json, new Date(json).getTime()]);
    }
  });

  it('cuts a fraction to milliseconds, as both parsers do, also at the end of a second', () => {
    expect(readTimestamp('2026-12-31 23:59:59.999999+00')?.toISOString()).toBe('2026-12-31T23:59:59.999Z');
    expect(readTimestamp('2026-11-27T09:50:52.5+01:00')?.toISOString()).toBe('2026-11-27T08:50:52.500Z');
  });

  it('is what pg gives for a timestamptz column once installed, and the general parser still answers the rest', () => {
    installFastTimestamps();
    const installed = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown;
    expect(installed).not.toBe(parseDate);
    expect((installed('2026-11-27 09:50:52.123456+01') as Date).toISOString()).toBe('2026-11-27T08:50:52.123Z');
    expect(installed('infinity')).toBe(Infinity);
    expect((installed('0044-03-15 12:00:00+00 BC') as Date).getUTCFullYear()).toBe(-43);
  });

  it.each([
    'infinity',
    '-infinity',
    '0044-03-15 12:00:00+00 BC',
    '0099-01-01 00:00:00+00',
    '12026-01-01 00:00:00+00',
    '2026-11-27 09:50:52+05:30:15',
    '2026-11-27 09:50:52.+00',
    '2026-11-27 09:50:52Z',
    '2026-11-27',
    '2026-11-27 09:50:52',
    '2026-1a-27 09:50:52+00',
  ])('leaves %j to the general parser', (text) => {
    expect(readTimestamp(text)).toBeUndefined();
  });
});
