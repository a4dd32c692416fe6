// PdfCheck keeps the first and last bytes of what passes, whatever the chunks.
import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PdfCheck } from './pdf-check.js';

async function pass(bytes: Buffer, chunk: number): Promise<PdfCheck> {
  const check = new PdfCheck('invoice', 10 * 1024 * 1024);
  const chunks = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk));
  await pipeline(Readable.from(chunks), check, new Writable({ write: (_c, _e, done) => done() }));
  return check;
}

describe(PdfCheck.name, () => {
  it.each([
    [300 * 1024, 1000],
    [300 * 1024, 64 * 1024],
    [20 * 1024, 7000],
    [100, 30],
  ])('keeps the ends of a %i-byte file passed in chunks of %i', async (size, chunk) => {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
    const ends = (await pass(bytes, chunk)).ends();
    expect(ends.size).toBe(size);
    expect(ends.head).toEqual(bytes.subarray(0, 8 * 1024));
    expect(ends.tail).toEqual(bytes.subarray(Math.max(0, size - 64 * 1024)));
  });
});
