import { jest } from '@jest/globals';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { loadPdf } from '../documents/pdf-load.js';
import { setLibraryLogger, withLibraryWarnings } from './library-output.js';
import { createRootLogger } from './logger.js';

/** A one-page PDF with an invalid object numbered `number` in front of its first one: pdf-lib repairs it with console warnings. */
async function damagedPdf(number: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Rechnung', { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  const text = Buffer.from(await doc.save({ useObjectStreams: false })).toString('latin1');
  const first = text.indexOf('1 0 obj');
  return Buffer.from(`${text.slice(0, first)}${number} 0 obj\n<< /Broken ] >>\nendobj\n${text.slice(first)}`, 'latin1');
}

describe('library output through the logger', () => {
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(() => setLibraryLogger(createRootLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) })));
  beforeEach(() => (lines.length = 0));
  afterEach(() => jest.restoreAllMocks());

  it("logs pdf-lib's warnings as one JSON line per document, concurrent documents apart, and nothing on the console", async () => {
    const spy = jest.fn();
    const original = console.warn;
    console.warn = spy;
    try {
      const [a, b] = await Promise.all([loadPdf(await damagedPdf(97), 'the first PDF'), loadPdf(await damagedPdf(98), 'the second PDF')]);
      expect([a.getPageCount(), b.getPageCount()]).toEqual([1, 1]);
    } finally {
      console.warn = original;
    }
    expect(spy).not.toHaveBeenCalled();
    expect(lines.map(({ level, context, msg, warnings }) => ({ level, context, msg, warnings }))).toEqual(
      expect.arrayContaining([
        {
          level: 40,
          context: 'pdf-lib',
          msg: 'pdf-lib warned while reading the first PDF',
          warnings: [expect.stringContaining('Trying to parse invalid object'), 'Invalid object ref: 97 0 R'],
        },
        {
          level: 40,
          context: 'pdf-lib',
          msg: 'pdf-lib warned while reading the second PDF',
          warnings: [expect.stringContaining('Trying to parse invalid object'), 'Invalid object ref: 98 0 R'],
        },
      ]),
    );
    expect(lines).toHaveLength(2);
  });

  it('writes no line for a library that stayed quiet, and leaves console.warn outside such a call alone', async () => {
    const spy = jest.fn();
    const original = console.warn;
    console.warn = spy;
    try {
      expect(await withLibraryWarnings('pdf-lib', 'reading nothing', () => Promise.resolve(42))).toBe(42);
      console.warn('outside');
    } finally {
      console.warn = original;
    }
    expect(spy).toHaveBeenCalledWith('outside');
    expect(lines).toEqual([]);
  });
});
