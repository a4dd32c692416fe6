// The request body of the invoices bench: "Create invoice" as multipart/form-data (spec: Create
// invoice: parameters), with a ~200 KB PDF as `invoice`. Built once as a template; every request gets a
// copy with its own sequence number written at fixed-width places (external_id, invoice_number), so
// no two requests collide on the unique external_id (a 409 would stop the bench).
import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A real one-page PDF (pdf-lib, as test/support/pdf.ts makes them), padded with incompressible bytes
 * (like an embedded scan) in an unreferenced stream until the file is `bytes` long, give or take a few. */
export async function makePdf(bytes: number): Promise<Buffer> {
  const make = async (pad: number) => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    page.drawText('Rechnung 2026-000000001', { x: 50, y: 780, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
    if (pad > 0) doc.context.register(doc.context.stream(randomBytes(pad)));
    return Buffer.from(await doc.save({ useObjectStreams: false }));
  };
  const bare = (await make(0)).length;
  const first = await make(bytes - bare);
  // The padding object's own dictionary, markers and xref entry come on top: take them off once.
  return first.length === bytes ? first : make(2 * bytes - bare - first.length);
}

const SEQ_WIDTH = 9;
const SEQ_MARK = 'X'.repeat(SEQ_WIDTH);

export interface MultipartTemplate {
  contentType: string;
  /** A body with this sequence number (0 ≤ seq < 10^9); a fresh buffer each call. */
  body(seq: number): Buffer;
  /** The form's text fields as sent for `seq`, for the notes. */
  fields(seq: number): Record<string, string>;
  pdfBytes: number;
}

export function multipartTemplate(customerId: string, pdf: Buffer): MultipartTemplate {
  const boundary = `----bench-${randomBytes(12).toString('hex')}`;
  if (pdf.includes(boundary)) throw new Error('The PDF happens to contain the multipart boundary; run again');
  const fields: Record<string, string> = {
    customer_id: customerId,
    external_id: `RE-BENCH-${SEQ_MARK}`,
    invoice_number: `2026-${SEQ_MARK}`,
    additional_number: 'PO-4711',
    total: '119.00',
    net: '100.00',
    vat19: '19.00',
    order_date: '01.11.2026',
    invoice_date: '02.11.2026',
    due_date: '16.11.2026',
  };
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="invoice"; filename="rechnung.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const template = Buffer.concat([head, pdf, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const marks: number[] = [];
  for (let at = head.indexOf(SEQ_MARK); at >= 0; at = head.indexOf(SEQ_MARK, at + SEQ_WIDTH)) marks.push(at);
  const digits = (seq: number) => {
    if (!Number.isInteger(seq) || seq < 0 || seq >= 10 ** SEQ_WIDTH) throw new Error(`sequence number out of range: ${seq}`);
    return String(seq).padStart(SEQ_WIDTH, '0');
  };
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    pdfBytes: pdf.length,
    body(seq) {
      const body = Buffer.from(template);
      const text = digits(seq);
      for (const at of marks) body.write(text, at, 'latin1');
      return body;
    },
    fields: (seq) => Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, value.replace(SEQ_MARK, digits(seq))])),
  };
}
