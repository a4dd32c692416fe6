// Whether a file is a real PDF and what active content it carries, beyond the magic bytes. Most files
// are judged from their structure with bounded reads (a few KiB, whatever their size), the active
// content walk included. A file whose cross-references that check cannot follow (damaged, repaired by
// readers through a scan), or whose walk would go beyond its bounds, is parsed whole by pdf-lib.
import { readFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import { findActiveContent } from './pdf-active-content.js';
import { parsedPdf } from './pdf-lib-objects.js';
import { loadPdf } from './pdf-load.js';
import { inspectPdfStructure } from './pdf-structure.js';
import { type FileEnds, TAIL_BYTES } from './pdf-xref.js';

/** What makes a PDF active, in words ("contains JavaScript (/OpenAction)"); null: nothing found. */
export type ActiveContent = string | null;

/**
 * The whole document is in memory here, so its walk may go far further than the reader's; a document
 * beyond even this counts as active, since what it hides was not looked at.
 */
const MAX_WALKED_PARSED = 200_000;

export class NotPdf extends Error {}

/**
 * The file's active content; throws NotPdf when it is no PDF. The full parse reads the file once: pdf-lib
 * slices its input for every stream, and a Buffer's slice is a view of the same memory, so the file is
 * held once and never copied (a plain Uint8Array would be copied stream by stream).
 */
export async function inspectPdfFile(path: string, ends?: FileEnds): Promise<ActiveContent> {
  const structure = await inspectPdfStructure(path, ends);
  if (structure.check === 'valid') return structure.activeContent;
  return activeContentOf(await parse(await readFile(path)));
}

/**
 * The same for a PDF in memory (a pushed one): the reader works from the buffer without copying it.
 * `parsed`: the document when the caller has parsed it already (used only if the reader cannot follow it).
 */
export async function inspectPdfBytes(bytes: Buffer, parsed?: PDFDocument): Promise<ActiveContent> {
  const ends = { size: bytes.length, head: bytes, tail: bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)) };
  // The path is never opened: every read falls within the bytes kept in memory.
  const structure = await inspectPdfStructure('', ends);
  if (structure.check === 'valid') return structure.activeContent;
  return activeContentOf(parsed ?? (await parse(bytes)));
}

async function parse(bytes: Buffer): Promise<PDFDocument> {
  try {
    const document = await loadPdf(bytes, 'an uploaded PDF whose cross-references are damaged', { updateMetadata: false });
    if (document.getPageCount() < 1) throw new Error('no pages');
    return document;
  } catch {
    throw new NotPdf();
  }
}

async function activeContentOf(document: PDFDocument): Promise<ActiveContent> {
  try {
    const { objects, catalog, pages } = parsedPdf(document);
    return await findActiveContent(objects, catalog, pages, MAX_WALKED_PARSED);
  } catch {
    return 'has more actions and annotations than are checked for active content';
  }
}
