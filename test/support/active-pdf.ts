// PDFs with active content, generated with pdf-lib: JavaScript on open, in a page's or a form field's
// additional actions, in the document's name tree or behind a /Next; a /Launch link; embedded files.
import { PDFArray, PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';

export type ActiveKind =
  | 'open-action-js'
  | 'open-action-next-js'
  | 'catalog-aa-js'
  | 'page-aa-js'
  | 'names-js'
  | 'launch-link'
  | 'attached-file'
  | 'file-attachment-annotation'
  | 'field-aa-js';

/** A one-page PDF with the given active content; `objectStreams` false writes a classic xref table. */
export async function makeActivePdf(kind: ActiveKind, objectStreams = true): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText('Rechnung', { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  const { context, catalog } = doc;
  const script = () => context.register(context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert("hi")') }));
  const annotate = (annotation: Record<string, unknown>) => {
    const annots = PDFArray.withContext(context);
    annots.push(context.register(context.obj({ Type: 'Annot', Rect: [50, 50, 200, 80], P: page.ref, ...annotation } as never)));
    page.node.set(PDFName.of('Annots'), annots);
  };
  switch (kind) {
    case 'open-action-js':
      catalog.set(PDFName.of('OpenAction'), script());
      break;
    case 'open-action-next-js':
      catalog.set(PDFName.of('OpenAction'), context.obj({ S: 'URI', URI: PDFString.of('https://example.com'), Next: [script()] }));
      break;
    case 'catalog-aa-js':
      catalog.set(PDFName.of('AA'), context.obj({ WC: script() }));
      break;
    case 'page-aa-js':
      page.node.set(PDFName.of('AA'), context.obj({ O: script() }));
      break;
    case 'names-js': {
      const tree = context.register(context.obj({ Names: [PDFString.of('init'), script()] }));
      catalog.set(PDFName.of('Names'), context.obj({ JavaScript: tree }));
      break;
    }
    case 'launch-link':
      annotate({ Subtype: 'Link', A: context.obj({ S: 'Launch', F: PDFString.of('calc.exe') }) });
      break;
    case 'attached-file':
      await doc.attach(Buffer.from('hello'), 'hello.txt', { mimeType: 'text/plain', description: 'a file' });
      break;
    case 'file-attachment-annotation': {
      const file = context.register(context.flateStream('hello', { Type: 'EmbeddedFile' }));
      annotate({ Subtype: 'FileAttachment', FS: context.obj({ Type: 'Filespec', F: PDFString.of('a.txt'), EF: { F: file } }) });
      break;
    }
    case 'field-aa-js': {
      const field = context.register(context.obj({ FT: 'Tx', T: PDFString.of('amount'), AA: { K: script() } }));
      annotate({ Subtype: 'Widget', Parent: field });
      break;
    }
  }
  return Buffer.from(await doc.save({ useObjectStreams: objectStreams }));
}

/** A PDF whose links and actions are all harmless: a URI link and an /OpenAction that only shows page 1. */
export async function makeInertPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const { context } = doc;
  doc.catalog.set(PDFName.of('OpenAction'), context.obj([page.ref, 'Fit']));
  const annots = PDFArray.withContext(context);
  annots.push(
    context.register(
      context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 10, 10], A: { S: 'URI', URI: PDFString.of('https://example.com') } }),
    ),
  );
  page.node.set(PDFName.of('Annots'), annots);
  return Buffer.from(await doc.save());
}
