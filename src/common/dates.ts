// Dates out as YYYY-MM-DD, datetimes out as ISO 8601 with the company's UTC offset (seconds precision).

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Offset of the zone at that instant in minutes east of UTC, as ICU tells it (slow: tens of µs). */
function exactOffsetMinutes(instant: Date, timeZone: string): number {
  const name = offsetFormatter(timeZone)
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * Offsets only change at a zone's transitions, which fall on quarter hours of UTC in every zone of the
 * last hundred years. A quarter hour whose start and end share an offset is cached; any other is
 * answered exactly, so an odd historical transition is never cached wrongly.
 */
const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_CACHED_QUARTERS = 50_000;
const offsetsByZone = new Map<string, Map<number, number>>();
let cachedQuarters = 0;

/** Offset of the zone at that instant in minutes east of UTC. */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const time = instant.getTime();
  if (Number.isNaN(time)) return exactOffsetMinutes(instant, timeZone); // throws RangeError, as ICU does
  const quarter = Math.floor(time / QUARTER_HOUR_MS);
  let offsets = offsetsByZone.get(timeZone);
  const cached = offsets?.get(quarter);
  if (cached !== undefined) return cached;
  const start = exactOffsetMinutes(new Date(quarter * QUARTER_HOUR_MS), timeZone);
  const end = exactOffsetMinutes(new Date((quarter + 1) * QUARTER_HOUR_MS - 1), timeZone);
  if (start !== end) return exactOffsetMinutes(instant, timeZone);
  if (cachedQuarters >= MAX_CACHED_QUARTERS) {
    offsetsByZone.clear();
    cachedQuarters = 0;
  }
  if (!offsets) offsetsByZone.set(timeZone, (offsets = new Map()));
  offsets.set(quarter, start);
  cachedQuarters++;
  return start;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** A date gives a string, only a missing one null: serializers' types (checked against their schemas) rely on it. */
export function formatDateTime(instant: Date, timeZone: string): string;
export function formatDateTime(instant: Date | null | undefined, timeZone: string): string | null;
export function formatDateTime(instant: Date | null | undefined, timeZone: string): string | null {
  if (!instant) return null;
  const offset = zoneOffsetMinutes(instant, timeZone);
  const local = new Date(instant.getTime() + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
