// Whether a PDF carries active content: JavaScript (an action of /S /JavaScript or with a /JS entry, a
// /Names → /JavaScript name tree), /Launch actions, or embedded files (an /EmbeddedFiles name tree, a
// /FileAttachment annotation). Found where a reader finds them: the catalog's /OpenAction, /AA and
// /Names, and every page's /AA and /Annots (an annotation's /A, /AA and its form field's /AA), with the
// /Next chains of actions. The walk resolves a bounded number of objects, whichever way they are read
// (the bounded xref reader on the upload path, pdf-lib's parsed document in the full-parse fallback).
import { Unreadable } from './pdf-filters.js';
import { PdfName, PdfRef, type PdfDict, type PdfValue } from './pdf-syntax.js';

/** Resolves references to objects: the xref reader, or a document parsed whole. */
export interface PdfObjects {
  resolve(value: PdfValue | undefined): Promise<PdfValue | undefined>;
}

/** References followed per walk: an invoice has a few dozen; a crafted file cannot make the walk long. */
export const MAX_WALKED = 5000;
/** /Next chains and form field /Parent chains followed at most this deep. */
const MAX_CHAIN = 32;

const nameOf = (value: PdfValue | undefined): string | undefined => (value instanceof PdfName ? value.name : undefined);

/**
 * The first active content found, in words for the client ("contains JavaScript (/OpenAction)"); null
 * when there is none. Throws Unreadable when the walk would take more than `maxWalked` references.
 */
export async function findActiveContent(
  objects: PdfObjects,
  catalog: PdfDict,
  pages: Iterable<PdfDict>,
  maxWalked = MAX_WALKED,
): Promise<string | null> {
  const walk = new Walk(objects, maxWalked);
  const found =
    (await walk.action(catalog.get('OpenAction'), '/OpenAction')) ??
    (await walk.additionalActions(catalog.get('AA'), null)) ??
    (await walk.names(catalog.get('Names')));
  if (found) return found;
  let number = 0;
  for (const page of pages) {
    number++;
    const onPage = (await walk.additionalActions(page.get('AA'), `page ${number}`)) ?? (await walk.annotations(page.get('Annots'), number));
    if (onPage) return onPage;
  }
  return null;
}

class Walk {
  private walked = 0;

  constructor(
    private readonly objects: PdfObjects,
    private readonly maxWalked: number,
  ) {}

  private async get(value: PdfValue | undefined): Promise<PdfValue | undefined> {
    if (value instanceof PdfRef && ++this.walked > this.maxWalked) throw new Unreadable('too many objects to check for active content');
    return this.objects.resolve(value);
  }

  private async dict(value: PdfValue | undefined): Promise<PdfDict | undefined> {
    const resolved = await this.get(value);
    return resolved instanceof Map ? resolved : undefined;
  }

  /** An action and its /Next chain; a destination (an array, a name) is no action. */
  async action(value: PdfValue | undefined, where: string, depth = 0): Promise<string | null> {
    if (depth > MAX_CHAIN) return null;
    const action = await this.dict(value);
    if (!action) return null;
    const type = nameOf(action.get('S'));
    if (type === 'JavaScript' || action.has('JS')) return `contains JavaScript (${where})`;
    if (type === 'Launch') return `contains a /Launch action (${where})`;
    const next = await this.get(action.get('Next'));
    for (const item of Array.isArray(next) ? next : [next]) {
      const found = await this.action(item, where, depth + 1);
      if (found) return found;
    }
    return null;
  }

  /** An /AA dictionary of `owner` (none: the document's): trigger events (/O, /C, /WC, /K, …) to actions. */
  async additionalActions(value: PdfValue | undefined, owner: string | null): Promise<string | null> {
    const actions = await this.dict(value);
    if (!actions) return null;
    for (const [event, action] of actions) {
      const found = await this.action(action, owner ? `/AA /${event} of ${owner}` : `/AA /${event}`);
      if (found) return found;
    }
    return null;
  }

  /** The catalog's name dictionary: document-level scripts and embedded files. */
  async names(value: PdfValue | undefined): Promise<string | null> {
    const names = await this.dict(value);
    if (!names) return null;
    if (await this.nonEmptyTree(names.get('JavaScript'))) return 'contains JavaScript (/Names /JavaScript)';
    if (await this.nonEmptyTree(names.get('EmbeddedFiles'))) return 'contains embedded files (/Names /EmbeddedFiles)';
    return null;
  }

  private async nonEmptyTree(value: PdfValue | undefined): Promise<boolean> {
    const root = await this.dict(value);
    if (!root) return false;
    const [names, kids] = [await this.get(root.get('Names')), await this.get(root.get('Kids'))];
    return (Array.isArray(names) && names.length > 0) || (Array.isArray(kids) && kids.length > 0);
  }

  async annotations(value: PdfValue | undefined, page: number): Promise<string | null> {
    const annotations = await this.get(value);
    if (!Array.isArray(annotations)) return null;
    for (const item of annotations) {
      const annotation = await this.dict(item);
      if (!annotation) continue;
      const subtype = nameOf(annotation.get('Subtype'));
      const where = `${subtype ? `/${subtype} ` : ''}annotation on page ${page}`;
      if (subtype === 'FileAttachment') return `contains an embedded file (${where})`;
      const found = (await this.action(annotation.get('A'), where)) ?? (await this.fieldActions(annotation, where));
      if (found) return found;
    }
    return null;
  }

  /** A widget's own /AA and those of the form fields above it (format, validate, calculate scripts). */
  private async fieldActions(annotation: PdfDict, where: string): Promise<string | null> {
    let node: PdfDict | undefined = annotation;
    for (let depth = 0; node && depth <= MAX_CHAIN; depth++) {
      const found = await this.additionalActions(node.get('AA'), depth === 0 ? `the ${where}` : `the form field of the ${where}`);
      if (found) return found;
      node = await this.dict(node.get('Parent'));
    }
    return null;
  }
}
