// Whether a file is a PDF whose structure holds together, checked from the file itself with bounded
// reads: the cross-reference chain from the trailer, the document catalog (/Root) and its page tree,
// every node of it (up to a bound) a page or a page list, with at least one page. A file this check
// cannot follow (a damaged xref that readers repair by scanning, an unsupported filter) is not refused
// here: the caller decides with a full parse. A valid file's active content is found in the same pass,
// from the catalog and the pages already read (pdf-active-content.ts).
import { findActiveContent, MAX_WALKED } from './pdf-active-content.js';
import { PdfName, PdfRef, type PdfDict, type PdfValue } from './pdf-syntax.js';
import { type FileEnds, PdfXref } from './pdf-xref.js';

export type StructureCheck = 'valid' | 'undecided';

/** Valid, with what makes it active ("contains JavaScript (/OpenAction)") or null; or left to the full parse. */
export type StructureInspection = { check: 'valid'; activeContent: string | null } | { check: 'undecided' };

/** Page tree nodes visited at most when only validity is asked: a document with more is judged by the first ones. */
const MAX_NODES = 500;
/**
 * The active content walk needs every page: it follows the tree as far as it follows references; a
 * tree larger still is left to the full parse (pages beyond would go unchecked).
 */
const MAX_NODES_WALKED = MAX_WALKED;

/** `ends`: the file's first and last bytes when the caller has them in memory (they spare most reads). */
export async function checkPdfStructure(path: string, ends?: FileEnds): Promise<StructureCheck> {
  return (await inspectPdfStructure(path, ends, false)).check;
}

/** The structure check and, unless `withActiveContent` is false, the active content walk over the same reads. */
export async function inspectPdfStructure(path: string, ends?: FileEnds, withActiveContent = true): Promise<StructureInspection> {
  try {
    return await PdfXref.with(
      path,
      async (xref): Promise<StructureInspection> => {
        const root = await xref.resolve(xref.trailer.get('Root'));
        if (!isDict(root, 'Catalog')) return { check: 'undecided' };
        const tree = await pageTree(xref, root.get('Pages'), withActiveContent ? MAX_NODES_WALKED : MAX_NODES);
        if (!tree || tree.pages.length === 0) return { check: 'undecided' };
        if (!withActiveContent) return { check: 'valid', activeContent: null };
        if (!tree.complete) return { check: 'undecided' };
        return { check: 'valid', activeContent: await findActiveContent(xref, root, tree.pages) };
      },
      ends,
    );
  } catch {
    // Unreadable, a syntax error, an I/O error: the full parse decides (and reports what is wrong).
    return { check: 'undecided' };
  }
}

/**
 * The pages (leaves) of the page tree reached within `maxNodes` nodes, in document order, and whether
 * that was the whole tree; undefined when a node is not a page or page list.
 */
async function pageTree(
  xref: PdfXref,
  top: PdfValue | undefined,
  maxNodes: number,
): Promise<{ pages: PdfDict[]; complete: boolean } | undefined> {
  const pending: Array<PdfValue | undefined> = [top];
  const seen = new Set<number>();
  const pages: PdfDict[] = [];
  while (pending.length > 0 && seen.size < maxNodes) {
    const next = pending.pop();
    // A node reached twice makes the tree a cycle: no reader can count its pages.
    if (next instanceof PdfRef) {
      if (seen.has(next.num)) return undefined;
      seen.add(next.num);
    }
    const node = await xref.resolve(next);
    if (!(node instanceof Map)) return undefined;
    const type = node.get('Type');
    const kids = node.get('Kids');
    if (type instanceof PdfName && type.name === 'Page') {
      pages.push(node);
      continue;
    }
    const list = await xref.resolve(kids);
    if (!Array.isArray(list) || (type !== undefined && !(type instanceof PdfName && type.name === 'Pages'))) return undefined;
    pending.push(...list.reverse());
  }
  return { pages, complete: pending.length === 0 };
}

/** A dictionary whose /Type, when present, is `type` (writers often leave /Type out). */
function isDict(value: PdfValue | undefined, type: string): value is PdfDict {
  if (!(value instanceof Map)) return false;
  const declared = value.get('Type');
  return declared === undefined || (declared instanceof PdfName && declared.name === type);
}
