// Real PDF files for upload tests, generated with pdf-lib.
import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export async function makePdf(text = 'Rechnung', padToBytes = 0): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText(text, { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  // Incompressible bytes, like an embedded image: the file really grows and still parses fast.
  if (padToBytes > 0) doc.context.register(doc.context.stream(randomBytes(padToBytes)));
  return Buffer.from(await doc.save());
}
