// The entries of a PDF's cross-reference data, as PdfXref reads them: where each object is (at an
// offset, inside an object stream, or free), from a classic table's 20-byte lines or the decoded rows of
// a cross-reference stream.
import { Unreadable } from './pdf-filters.js';
import { PdfName, type PdfDict, type PdfValue } from './pdf-syntax.js';

export type Location = { offset: number } | { stream: number; index: number } | 'free' | undefined;

export interface XrefSource {
  find(num: number): Promise<Location>;
}

export interface Section {
  entries: XrefSource[];
  trailer: PdfDict;
}

export const ENTRY = /^(\d{10}) (\d{5}) ([nf])/;

/** The finder of an xref stream's decoded rows (its /W field widths over its /Index ranges). */
export function streamRows(dict: PdfDict, data: Buffer): (num: number) => Promise<Location> {
  if (!(dict.get('Type') instanceof PdfName) || (dict.get('Type') as PdfName).name !== 'XRef') throw new Unreadable('not an xref stream');
  const widths = numbers(dict.get('W'));
  const size = dict.get('Size');
  const index = dict.has('Index') ? numbers(dict.get('Index')) : [0, typeof size === 'number' ? size : 0];
  if (widths.length !== 3 || index.length % 2 !== 0) throw new Unreadable('bad /W or /Index');
  const rowBytes = widths[0] + widths[1] + widths[2];
  const field = (row: number, from: number, width: number, fallback: number) => {
    if (width === 0) return fallback;
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 256 + data[row * rowBytes + from + i];
    return value;
  };
  const locate = (num: number): Location => {
    let row = 0;
    for (let i = 0; i < index.length; i += 2) {
      if (num >= index[i] && num < index[i] + index[i + 1]) {
        row += num - index[i];
        if ((row + 1) * rowBytes > data.length) return undefined;
        const type = field(row, 0, widths[0], 1);
        const second = field(row, widths[0], widths[1], 0);
        const third = field(row, widths[0] + widths[1], widths[2], 0);
        return type === 1 ? { offset: second } : type === 2 ? { stream: second, index: third } : type === 0 ? 'free' : undefined;
      }
      row += index[i + 1];
    }
    return undefined;
  };
  return (num) => Promise.resolve(locate(num));
}

function numbers(value: PdfValue | undefined): number[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'number' && Number.isInteger(item) && item >= 0))
    throw new Unreadable('not an array of integers');
  return value as number[];
}
