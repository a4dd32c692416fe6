import { zoneOffsetMinutes } from './dates.js';
// Calendar dates (no time): in as DD.MM.YYYY or YYYY-MM-DD, kept and sent out as YYYY-MM-DD.

const GERMAN = /^(\d{2})\.(\d{2})\.(\d{4})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The date as YYYY-MM-DD, or undefined when the text is no real calendar date (31.02.2026). */
export function parseCalendarDate(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const text = input.trim();
  let parts: [number, number, number] | undefined;
  const german = GERMAN.exec(text);
  const iso = ISO.exec(text);
  if (german) parts = [Number(german[3]), Number(german[2]), Number(german[1])];
  else if (iso) parts = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  if (!parts) return undefined;
  const [year, month, day] = parts;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || year > 2999 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function daysBetween(fromIso: string, toIso: string): number {
  return Math.round((Date.parse(`${toIso}T00:00:00Z`) - Date.parse(`${fromIso}T00:00:00Z`)) / 86_400_000);
}

/** Today's date in a time zone, as YYYY-MM-DD. */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Date(now.getTime() + zoneOffsetMinutes(now, timeZone) * 60_000).toISOString().slice(0, 10);
}
