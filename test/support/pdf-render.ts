// A PDF as a reader sees it: each page rendered to PNG, and its text lines with their position in
// millimetres from the page's top-left corner (DIN 5008 measures in mm), by MuPDF (WebAssembly, no download).
import * as mupdf from 'mupdf';

const MM_PER_POINT = 25.4 / 72;

export interface TextLine {
  text: string;
  /** Left edge and top edge, width and height, in mm. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Font size in points. */
  size: number;
  bold: boolean;
}

export interface RenderedPage {
  png: Buffer;
  widthMm: number;
  heightMm: number;
  lines: TextLine[];
}

interface StructuredJson {
  blocks: Array<{
    type: string;
    lines?: Array<{ bbox: { x: number; y: number; w: number; h: number }; font: { size: number; weight: string }; text: string }>;
  }>;
}

/** Every page of the PDF; `dpi` sets the PNG's resolution (96 shows a page at screen size). */
export function renderPdf(pdf: Uint8Array, dpi = 96): RenderedPage[] {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const pages: RenderedPage[] = [];
  for (let n = 0; n < doc.countPages(); n++) {
    const page = doc.loadPage(n);
    const [x0, y0, x1, y1] = page.getBounds();
    const pixmap = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true);
    const structured = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON()) as StructuredJson;
    const lines = structured.blocks.flatMap((block) =>
      (block.lines ?? []).map((line) => ({
        text: line.text,
        x: line.bbox.x * MM_PER_POINT,
        y: line.bbox.y * MM_PER_POINT,
        w: line.bbox.w * MM_PER_POINT,
        h: line.bbox.h * MM_PER_POINT,
        size: line.font.size,
        bold: line.font.weight === 'bold',
      })),
    );
    pages.push({ png: Buffer.from(pixmap.asPNG()), widthMm: (x1 - x0) * MM_PER_POINT, heightMm: (y1 - y0) * MM_PER_POINT, lines });
  }
  return pages;
}

/** The lines whose top edge lies between `fromMm` and `toMm` from the top of the page, in reading order. */
export function linesBetween(page: RenderedPage, fromMm: number, toMm: number): TextLine[] {
  return page.lines.filter((line) => line.y >= fromMm && line.y < toMm).sort((a, b) => a.y - b.y || a.x - b.x);
}

/** The first line containing the text, or undefined. */
export function findLine(page: RenderedPage, text: string): TextLine | undefined {
  return page.lines.find((line) => line.text.includes(text));
}
