import * as mupdf from 'mupdf';
import { PDFDocument } from 'pdf-lib';
import { imagesPerPage, makePng } from '../../test/web/settings-support.js';
import { DIN5008 as D } from './din5008.js';
import type { LetterContent } from './letter.js';
import { fitInto, logoTypeOf } from './letter-logo.js';
import { renderLetter } from './letter-renderer.js';

const RED: [number, number, number] = [220, 20, 20];

function content(logo: LetterContent['sender']['logo']): LetterContent {
  return {
    title: 'Zahlungserinnerung',
    sender: {
      name: 'Muster Handel GmbH',
      address: ['Hauptstraße 5', '10115 Berlin'],
      contact: ['Tel. 030 123456', 'buchhaltung@muster-handel-und-vertrieb.de', 'www.muster-handel-und-vertrieb.de'],
      bank: [],
      legal: ['Muster Handel GmbH'],
      logo,
    },
    returnAddress: 'Muster Handel GmbH · Hauptstraße 5 · 10115 Berlin',
    recipient: ['Kunde AG', 'Allee 2', '20095 Hamburg'],
    info: [{ label: 'Datum', value: '21.11.2026' }],
    subject: 'Zahlungserinnerung zur Rechnung 2026-001',
    salutation: 'Sehr geehrte Damen und Herren,',
    paragraphs: ['sicher haben Sie unsere Rechnung übersehen.'],
    closingParagraphs: [],
    closing: 'Mit freundlichen Grüßen',
    signature: 'Muster Handel GmbH',
  };
}

/** Whether the first page is red at a point `x`, `y` millimetres from its top-left corner. */
function redAt(pdf: Uint8Array, points: Array<[number, number]>): boolean[] {
  const page = mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(0);
  const dpi = 72;
  const pixmap = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true);
  const pixels = pixmap.getPixels();
  const stride = pixmap.getStride();
  return points.map(([x, y]) => {
    const at = Math.round((y / 25.4) * dpi) * stride + Math.round((x / 25.4) * dpi) * 3;
    return pixels[at] > 180 && pixels[at + 1] < 80 && pixels[at + 2] < 80;
  });
}

describe('the letterhead logo', () => {
  it('knows PNG and JPEG by their first bytes, whatever a file is called', () => {
    expect(logoTypeOf(makePng(2, 2))).toBe('image/png');
    expect(logoTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(logoTypeOf(Buffer.from('GIF89a'))).toBeNull();
    expect(logoTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(logoTypeOf(new Uint8Array())).toBeNull();
  });

  it('fits an image into the box keeping its aspect ratio', () => {
    expect(fitInto(400, 100, { width: 50, height: 25 })).toEqual({ width: 50, height: 12.5 });
    expect(fitInto(100, 400, { width: 50, height: 25 })).toEqual({ width: 6.25, height: 25 });
  });

  it('draws a wide logo across the box at the top right of the first page only', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `Absatz ${i + 1}: ${'Text '.repeat(30)}`);
    const pdf = await renderLetter({ ...content({ contentType: 'image/png', bytes: makePng(400, 100, RED) }), paragraphs: long });
    expect(await imagesPerPage(pdf)).toEqual([1, ...Array.from({ length: (await PDFDocument.load(pdf)).getPageCount() - 1 }, () => 0)]);
    // 50 × 12.5 mm from (140, 10) to (190, 22.5): red inside, white beside and below it.
    const right = D.logo.right;
    expect(
      redAt(pdf, [
        [right - 1, D.logo.top + 1],
        [right - 49, D.logo.top + 11],
        [right - 25, D.logo.top + 6],
      ]),
    ).toEqual([true, true, true]);
    expect(
      redAt(pdf, [
        [right - 25, D.logo.top + 14],
        [right + 2, D.logo.top + 6],
      ]),
    ).toEqual([false, false]);
  });

  it('keeps a tall logo narrow, at the right edge of the box', async () => {
    const pdf = await renderLetter(content({ contentType: 'image/png', bytes: makePng(100, 400, RED) }));
    // 6.25 × 25 mm at the right edge.
    expect(
      redAt(pdf, [
        [D.logo.right - 3, D.logo.top + 12],
        [D.logo.right - 3, D.logo.top + 24],
      ]),
    ).toEqual([true, true]);
    expect(redAt(pdf, [[D.logo.right - 10, D.logo.top + 12]])).toEqual([false]);
  });

  it('draws no image without a logo', async () => {
    expect(await imagesPerPage(await renderLetter(content(null)))).toEqual([0]);
  });
});
