// Public ids are `<prefix>-<uuid>`; the database stores the bare uuid.
import { randomUUID } from 'node:crypto';

export type IdPrefix =
  'cmp' | 'cus' | 'con' | 'inv' | 'pay' | 'rem' | 'run' | 'tok' | 'key' | 'usr' | 'doc' | 'app' | 'shp' | 'dlv' | 'erp' | 'pul';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function newUuid(): string {
  return randomUUID();
}

// A batch asks for thousands of ids within the same millisecond: their clock part is written once.
let clockPartMs = -1;
let clockPart = '';

/**
 * A UUIDv7 (RFC 9562): the millisecond clock in the first 48 bits, the rest random. For rows written in
 * bulk: ids that grow with time are appended at the end of the indexes that hold them (the primary key,
 * other tables' references), where random ones would touch a different index page each.
 */
export function newTimeOrderedUuid(now = Date.now()): string {
  if (now !== clockPartMs) {
    const time = now.toString(16).padStart(12, '0');
    clockPart = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
    clockPartMs = now;
  }
  return clockPart + randomUUID().slice(15);
}

export function toPublicId(prefix: IdPrefix, uuid: string): string {
  return `${prefix}-${uuid}`;
}

/** The uuid inside a public id, or undefined when the text is not an id of that kind. */
export function parsePublicId(prefix: IdPrefix, text: string | undefined | null): string | undefined {
  if (typeof text !== 'string' || !text.startsWith(`${prefix}-`)) return undefined;
  const uuid = text.slice(prefix.length + 1).toLowerCase();
  return UUID.test(uuid) ? uuid : undefined;
}
