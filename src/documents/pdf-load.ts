// Every PDF the service parses with pdf-lib goes through here: pdf-lib reports what it repairs (damaged
// object references, invalid objects) with console.warn, which would land as plain text in the JSON log.
import { type LoadOptions, PDFDocument } from 'pdf-lib';
import { withLibraryWarnings } from '../logging/library-output.js';

/** PDFDocument.load (encryption ignored), its warnings logged as one JSON line saying what was being read. */
export function loadPdf(bytes: Uint8Array, reading: string, options: LoadOptions = {}): Promise<PDFDocument> {
  return withLibraryWarnings('pdf-lib', `reading ${reading}`, () => PDFDocument.load(bytes, { ignoreEncryption: true, ...options }));
}
