// Stream filters the structure check needs: FlateDecode, with or without PNG predictors (the usual
// encoding of cross-reference and object streams). Anything else is Unreadable.
import { constants, inflateSync } from 'node:zlib';
import { PdfName, type PdfDict } from './pdf-syntax.js';

/** This reader cannot follow the file; the caller decides by other means. */
export class Unreadable extends Error {}

export function decodeStream(dict: PdfDict, data: Buffer, maxDecoded: number): Buffer {
  const filter = dict.get('Filter');
  const filters = Array.isArray(filter) ? filter : filter === undefined ? [] : [filter];
  if (filters.length === 0) return data;
  if (filters.length > 1 || !(filters[0] instanceof PdfName) || filters[0].name !== 'FlateDecode')
    throw new Unreadable('unsupported filter');
  let inflated: Buffer;
  try {
    // Sync flush: many writers end the data without the final block or checksum; readers accept that.
    inflated = inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: maxDecoded });
  } catch {
    throw new Unreadable('the stream does not inflate');
  }
  const parms = dict.get('DecodeParms');
  const predictor = parms instanceof Map ? parms.get('Predictor') : undefined;
  if (predictor === undefined || predictor === 1) return inflated;
  if (typeof predictor !== 'number' || predictor < 10) throw new Unreadable('unsupported predictor');
  const columns = (parms as PdfDict).get('Columns');
  return unpredictPng(inflated, typeof columns === 'number' ? columns : 1);
}

/** PNG row filters (None, Sub, Up, Average, Paeth) over rows of `columns` bytes, one byte per sample. */
function unpredictPng(data: Buffer, columns: number): Buffer {
  const rows = Math.floor(data.length / (columns + 1));
  const out = Buffer.alloc(rows * columns);
  for (let row = 0; row < rows; row++) {
    const type = data[row * (columns + 1)];
    for (let col = 0; col < columns; col++) {
      const raw = data[row * (columns + 1) + 1 + col];
      const left = col > 0 ? out[row * columns + col - 1] : 0;
      const up = row > 0 ? out[(row - 1) * columns + col] : 0;
      const upLeft = row > 0 && col > 0 ? out[(row - 1) * columns + col - 1] : 0;
      let predicted = 0;
      if (type === 1) predicted = left;
      else if (type === 2) predicted = up;
      else if (type === 3) predicted = (left + up) >> 1;
      else if (type === 4) predicted = paeth(left, up, upLeft);
      else if (type !== 0) throw new Unreadable('bad PNG row filter');
      out[row * columns + col] = (raw + predicted) & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
