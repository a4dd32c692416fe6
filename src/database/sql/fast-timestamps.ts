// A speed trick, measured (bench/README.md, "Timestamps read by position"): pg turns every timestamptz
// into a Date with postgres-date, a general parser (three regular expressions, BC years, infinity), and a
// child's timestamps inside json_agg became Dates through V8's string parser. A page of 30 customers with
// their contacts holds about 180 of them: 60 µs of the page's ~850 µs of CPU, more than any other part of
// reading it. Both shapes PostgreSQL writes — `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM]` in a row (DateStyle
// ISO) and `YYYY-MM-DDTHH:MM:SS[.ffffff]±HH:MM` in JSON — are read here by position; any other text (BC,
// infinity, a year before 100 or after 9999, an offset with seconds) goes to the parser it went to before.
// Fractions are cut to milliseconds, as both did (test: fast-timestamps.spec.ts, against both).
import pg from 'pg';

const TIMESTAMPTZ_OID = 1184;

/** The instant a timestamptz text names, or undefined when the text is not of the common shape. */
export function readTimestamp(text: string): Date | undefined {
  const length = text.length;
  if (length < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58)
    return undefined;
  const separator = text.charCodeAt(10);
  if (separator !== 32 && separator !== 84) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 100 || month < 1 || day < 1 || hour < 0 || minute < 0 || second < 0) return undefined;
  let at = 19;
  let millis = 0;
  if (text.charCodeAt(at) === 46) {
    const start = ++at;
    while (at < length && isDigit(text.charCodeAt(at))) at++;
    if (at === start) return undefined;
    millis = digits(`${text.slice(start, Math.min(at, start + 3))}00`, 0, 3);
  }
  const sign = text.charCodeAt(at);
  if (sign !== 43 && sign !== 45) return undefined;
  const offsetHours = digits(text, at + 1, 2);
  const withMinutes = at + 6 === length && text.charCodeAt(at + 3) === 58;
  if (at + 3 !== length && !withMinutes) return undefined;
  const offsetMinutes = withMinutes ? digits(text, at + 4, 2) : 0;
  if (offsetHours < 0 || offsetMinutes < 0) return undefined;
  const offset = (sign === 45 ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset);
}

/** pg's parser of timestamptz columns, with the common shape read by position. Installed once per process. */
export function installFastTimestamps(): void {
  const general = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (text: string) => unknown;
  if ((general as { fast?: true }).fast) return;
  const parse = Object.assign((text: string) => readTimestamp(text) ?? general(text), { fast: true as const });
  pg.types.setTypeParser(TIMESTAMPTZ_OID, 'text', parse);
}

/** A timestamp inside entity JSON, as `new Date(text)` would read it. */
export function readJsonTimestamp(text: string): Date {
  return readTimestamp(text) ?? new Date(text);
}

/** The number `count` decimal digits at `start` spell, or -1. */
function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + code - 48;
  }
  return value;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
