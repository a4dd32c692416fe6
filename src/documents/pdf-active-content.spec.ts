// Active content found in PDFs written by pdf-lib (object streams and classic tables), from a file and
// from memory, by the structure reader and by the full-parse fallback alike; and none in harmless ones.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { type ActiveKind, makeActivePdf, makeInertPdf } from '../../test/support/active-pdf.js';
import { makePdf } from '../../test/support/pdf.js';
import { findActiveContent, type PdfObjects } from './pdf-active-content.js';
import { Unreadable } from './pdf-filters.js';
import { inspectPdfBytes, inspectPdfFile } from './pdf-inspection.js';
import { inspectPdfStructure } from './pdf-structure.js';
import { PdfName, PdfRef, type PdfDict } from './pdf-syntax.js';

const FOUND: Array<[ActiveKind, string]> = [
  ['open-action-js', 'contains JavaScript (/OpenAction)'],
  ['open-action-next-js', 'contains JavaScript (/OpenAction)'],
  ['catalog-aa-js', 'contains JavaScript (/AA /WC)'],
  ['page-aa-js', 'contains JavaScript (/AA /O of page 1)'],
  ['names-js', 'contains JavaScript (/Names /JavaScript)'],
  ['launch-link', 'contains a /Launch action (/Link annotation on page 1)'],
  ['attached-file', 'contains embedded files (/Names /EmbeddedFiles)'],
  ['file-attachment-annotation', 'contains an embedded file (/FileAttachment annotation on page 1)'],
  ['field-aa-js', 'contains JavaScript (/AA /K of the form field of the /Widget annotation on page 1)'],
];

/** A damaged startxref: the reader gives up and the full parse (which repairs by scanning) decides. */
const damaged = (bytes: Buffer): Buffer => Buffer.from(bytes.toString('latin1').replace(/startxref\s+\d+/, 'startxref\n9'), 'latin1');

describe('active content of a PDF', () => {
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdf-active-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  async function fileOf(bytes: Buffer): Promise<string> {
    const path = join(dir, `f${++n}.pdf`);
    await writeFile(path, bytes);
    return path;
  }

  it.each(FOUND)('finds %s with the structure reader, from a file and from memory', async (kind, reason) => {
    for (const objectStreams of [true, false]) {
      const bytes = await makeActivePdf(kind, objectStreams);
      const structure = await inspectPdfStructure(await fileOf(bytes));
      expect(structure).toEqual({ check: 'valid', activeContent: reason });
      expect(await inspectPdfBytes(bytes)).toBe(reason);
    }
  });

  it.each(FOUND)('finds %s through the full parse when the reader cannot follow the file', async (kind, reason) => {
    const bytes = damaged(await makeActivePdf(kind, false));
    const path = await fileOf(bytes);
    expect(await inspectPdfStructure(path)).toEqual({ check: 'undecided' });
    expect(await inspectPdfFile(path)).toBe(reason);
    expect(await inspectPdfBytes(bytes)).toBe(reason);
    expect(await inspectPdfBytes(bytes, await PDFDocument.load(bytes))).toBe(reason);
  });

  it('finds nothing in a plain PDF, nor in a URI link and an /OpenAction that only shows a page', async () => {
    for (const bytes of [await makePdf('Rechnung'), await makeInertPdf()]) {
      expect(await inspectPdfFile(await fileOf(bytes))).toBeNull();
      expect(await inspectPdfFile(await fileOf(damaged(bytes)))).toBeNull();
      expect(await inspectPdfBytes(bytes)).toBeNull();
    }
  });

  it('walks every page of a long document with the reader: a script on page 600 is found without the full parse', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 600; i++) doc.addPage([100, 100]);
    const last = doc.getPage(599).node;
    last.set(PDFName.of('AA'), doc.context.obj({ C: { S: 'JavaScript', JS: PDFString.of('app.alert(1)') } }));
    const bytes = Buffer.from(await doc.save());
    expect(await inspectPdfStructure(await fileOf(bytes))).toEqual({
      check: 'valid',
      activeContent: 'contains JavaScript (/AA /C of page 600)',
    });
  });

  it('stops a walk that would follow more references than its bound', async () => {
    // Every annotation of a page is a reference of its own: 10 of them, a bound of 5.
    const annots = Array.from({ length: 10 }, (_, i) => new PdfRef(100 + i, 0));
    const page: PdfDict = new Map([['Annots', annots]]);
    const objects: PdfObjects = {
      resolve: (value) => Promise.resolve(value instanceof PdfRef ? new Map([['Subtype', new PdfName('Link')]]) : value),
    };
    await expect(findActiveContent(objects, new Map(), [page], 5)).rejects.toBeInstanceOf(Unreadable);
    expect(await findActiveContent(objects, new Map(), [page], 50)).toBeNull();
  });

  it('follows a /Next chain that loops only as far as its bound', async () => {
    const action: PdfDict = new Map<string, never>([
      ['S', new PdfName('URI') as never],
      ['Next', new PdfRef(7, 0) as never],
    ]);
    const objects: PdfObjects = { resolve: (value) => Promise.resolve(value instanceof PdfRef ? action : value) };
    expect(await findActiveContent(objects, new Map([['OpenAction', new PdfRef(7, 0)]]), [])).toBeNull();
  });
});
