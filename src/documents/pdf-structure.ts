// Whether a file is a PDF whose structure holds together, checked from the file itself with bounded
// reads: the cross-reference chain from the trailer, the document catalog (/Root) and its page tree,
// every node of it (up to a bound) a page or a page list, with at least one page. A file this check
// cannot follow (a damaged xref that readers repair by scanning, an unsupported filter) is not refused
// here: the caller decides with a full parse.
import { PdfName, PdfRef, type PdfDict, type PdfValue } from './pdf-syntax.js';
import { type FileEnds, PdfXref } from './pdf-xref.js';

export type StructureCheck = 'valid' | 'undecided';

/** Page tree nodes visited at most; a document with more pages is judged by the first ones. */
const MAX_NODES = 500;

/** `ends`: the file's first and last bytes when the caller has them in memory (they spare most reads). */
export async function checkPdfStructure(path: string, ends?: FileEnds): Promise<StructureCheck> {
  try {
    return await PdfXref.with(
      path,
      async (xref) => {
        const root = await xref.resolve(xref.trailer.get('Root'));
        if (!isDict(root, 'Catalog')) return 'undecided';
        return (await countPages(xref, root.get('Pages'))) > 0 ? 'valid' : 'undecided';
      },
      ends,
    );
  } catch {
    // Unreadable, a syntax error, an I/O error: the full parse decides (and reports what is wrong).
    return 'undecided';
  }
}

/** Leaves of the page tree reached within MAX_NODES nodes; 0 when a node is not a page or page list. */
async function countPages(xref: PdfXref, top: PdfValue | undefined): Promise<number> {
  const pending: Array<PdfValue | undefined> = [top];
  const seen = new Set<number>();
  let pages = 0;
  while (pending.length > 0 && seen.size < MAX_NODES) {
    const next = pending.pop();
    // A node reached twice makes the tree a cycle: no reader can count its pages.
    if (next instanceof PdfRef) {
      if (seen.has(next.num)) return 0;
      seen.add(next.num);
    }
    const node = await xref.resolve(next);
    if (!(node instanceof Map)) return 0;
    const type = node.get('Type');
    const kids = node.get('Kids');
    if (type instanceof PdfName && type.name === 'Page') {
      pages++;
      continue;
    }
    const list = await xref.resolve(kids);
    if (!Array.isArray(list) || (type !== undefined && !(type instanceof PdfName && type.name === 'Pages'))) return 0;
    pending.push(...list.reverse());
  }
  return pages;
}

/** A dictionary whose /Type, when present, is `type` (writers often leave /Type out). */
function isDict(value: PdfValue | undefined, type: string): value is PdfDict {
  if (!(value instanceof Map)) return false;
  const declared = value.get('Type');
  return declared === undefined || (declared instanceof PdfName && declared.name === type);
}
