// A document parsed whole by pdf-lib (the fallback for files the xref reader cannot follow), seen
// through the structure reader's value types, so one walk finds active content in either.
import {
  PDFArray,
  PDFBool,
  type PDFDocument,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRef,
  PDFStream,
  PDFString,
} from 'pdf-lib';
import type { PdfObjects } from './pdf-active-content.js';
import { PdfName, PdfRef, type PdfDict, type PdfValue } from './pdf-syntax.js';

/** Direct objects nest no deeper than this in catalog, action and annotation data. */
const MAX_DEPTH = 32;

export interface ParsedPdf {
  objects: PdfObjects;
  catalog: PdfDict;
  pages: PdfDict[];
}

export function parsedPdf(document: PDFDocument): ParsedPdf {
  const objects: PdfObjects = {
    resolve: (value) =>
      Promise.resolve(value instanceof PdfRef ? valueOf(document.context.lookup(PDFRef.of(value.num, value.gen))) : value),
  };
  const catalog = valueOf(document.catalog) as PdfDict;
  const pages = document.getPages().map((page) => valueOf(page.node) as PdfDict);
  return { objects, catalog, pages };
}

/** One object with its direct contents; references stay references (resolved when walked to). */
function valueOf(object: PDFObject | undefined, depth = 0): PdfValue {
  if (object === undefined || depth > MAX_DEPTH) return null;
  if (object instanceof PDFRef) return new PdfRef(object.objectNumber, object.generationNumber);
  if (object instanceof PDFStream) return valueOf(object.dict, depth);
  if (object instanceof PDFDict) {
    const dict: PdfDict = new Map();
    for (const [key, inner] of object.entries()) dict.set(key.decodeText(), valueOf(inner, depth + 1));
    return dict;
  }
  if (object instanceof PDFArray) return object.asArray().map((inner) => valueOf(inner, depth + 1));
  if (object instanceof PDFName) return new PdfName(object.decodeText());
  if (object instanceof PDFNumber) return object.asNumber();
  if (object instanceof PDFBool) return object.asBoolean();
  if (object instanceof PDFString || object instanceof PDFHexString) return object.decodeText();
  return null;
}
