// Renders a LetterContent as a DIN 5008 (form B) letter with pdf-lib: letterhead, return address and
// recipient in the window area, information block, subject, greeting, text, amounts table, closing,
// footer with the sender's details, fold and punch marks. Long texts continue on further pages.
import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb } from 'pdf-lib';
import { loadPdf } from '../documents/pdf-load.js';
import { A4, DIN5008 as D, MM } from './din5008.js';
import { embedLetterFonts } from './fonts.js';
import type { LetterContent } from './letter.js';
import { embedLogo, fitInto } from './letter-logo.js';
import { drawLetterFooter } from './letter-footer.js';
import { LETTER } from './messages.de.js';
import { type FontSet, printable, wrapText } from './text-layout.js';

const GREY = rgb(0.35, 0.35, 0.35);
const BLACK = rgb(0, 0, 0);
const BODY = 10;
/** Width kept free for the amounts at the right of the amounts table, in mm. */
const AMOUNT_COLUMN = 30;

/** One letter as a PDF file of its own. */
export async function renderLetter(content: LetterContent): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  await drawLetter(doc, content);
  doc.setTitle(content.title);
  doc.setAuthor(content.sender.name);
  doc.setCreator('receivables-service');
  return doc.save();
}

/** Adds the letter's pages to a document (for a cover page in front of another PDF). */
export async function drawLetter(doc: PDFDocument, content: LetterContent): Promise<void> {
  const logo = content.sender.logo ? await embedLogo(doc, content.sender.logo) : null;
  new LetterWriter(doc, await embedLetterFonts(doc), content, logo).write();
}

/** Lays text out top-down in millimetres, starting a new page when the text area is full. */
class LetterWriter {
  private readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: FontSet,
    private readonly content: LetterContent,
    private readonly logo: PDFImage | null,
  ) {}

  write(): void {
    const c = this.content;
    this.newPage();
    this.firstPageHead();
    this.y = D.subjectBaseline;
    this.text(c.subject, D.left, this.y, 11, this.fonts.bold);
    this.y += 2 * D.line;
    this.text(c.salutation, D.left, this.y);
    this.y += D.line;
    for (const paragraph of c.paragraphs) this.paragraph(paragraph);
    if (c.amounts?.length) this.amounts(c.amounts);
    for (const paragraph of c.closingParagraphs) this.paragraph(paragraph);
    this.y += D.line;
    this.ensureRoom(3 * D.line);
    this.text(c.closing, D.left, this.y);
    this.y += 2 * D.line;
    this.text(c.signature, D.left, this.y);
    this.pageNumbers();
  }

  private newPage(): void {
    this.page = this.doc.addPage([A4.width * MM, A4.height * MM]);
    this.pages.push(this.page);
    this.y = D.continuationTop;
    this.marks();
    this.footer();
  }

  private firstPageHead(): void {
    const { sender, returnAddress, recipient, info } = this.content;
    this.text(sender.name, D.left, D.letterhead.top, 15, this.fonts.bold);
    const head = [...sender.address, ...sender.contact].join('  ·  ');
    // Beside a logo the address and contact line wraps short of the logo's box.
    const lines = this.logo ? wrapText(head, this.fonts.regular, 8, (D.logo.right - D.logo.width - 5 - D.left) * MM) : [head];
    lines.forEach((line, i) => this.text(line, D.left, D.letterhead.top + 6 + i * 3.5, 8, this.fonts.regular, GREY));
    this.drawLogo();
    const line = printable(returnAddress, this.fonts.regular);
    this.text(line, D.left, D.returnAddressBaseline, 7, this.fonts.regular, GREY);
    const underline = this.top(D.returnAddressBaseline + 0.8);
    const width = this.fonts.regular.widthOfTextAtSize(line, 7);
    this.page.drawLine({
      start: { x: D.left * MM, y: underline },
      end: { x: D.left * MM + width, y: underline },
      thickness: 0.4,
      color: GREY,
    });
    recipient.slice(0, D.addressLines).forEach((text, i) => this.text(text, D.left, D.addressFirstBaseline + i * D.line));
    info.forEach(({ label, value }, i) => {
      const baseline = D.infoBlock.firstBaseline + i * 4.6;
      this.text(label, D.infoBlock.left, baseline, 8, this.fonts.regular, GREY);
      this.text(value, D.infoBlock.valueLeft, baseline, 9);
    });
  }

  /** The logo scaled into its box keeping its aspect ratio, set to the box's top right corner. */
  private drawLogo(): void {
    if (!this.logo) return;
    const { width, height } = fitInto(this.logo.width, this.logo.height, D.logo);
    const x = D.logo.right - width;
    this.page.drawImage(this.logo, { x: x * MM, y: this.top(D.logo.top + height), width: width * MM, height: height * MM });
  }

  private paragraph(paragraph: string): void {
    this.y += D.line;
    for (const line of wrapText(paragraph, this.fonts.regular, BODY, (D.right - D.left) * MM)) {
      this.ensureRoom(D.line);
      this.text(line, D.left, this.y);
      this.y += D.line;
    }
  }

  /** Label left (wrapped beside the amount column: an interest line explains itself over two lines), amount right. */
  private amounts(rows: NonNullable<LetterContent['amounts']>): void {
    this.y += D.line;
    this.ensureRoom((Math.min(rows.length, 6) + 1) * D.line);
    const labelWidth = (D.right - D.left - AMOUNT_COLUMN) * MM;
    for (const [i, row] of rows.entries()) {
      const font = row.total ? this.fonts.bold : this.fonts.regular;
      const labelLines = wrapText(row.label, font, BODY, labelWidth);
      // The rule above the total keeps clear of the descenders of the row before it.
      if (row.total && i > 0) this.y += 1.2;
      this.ensureRoom(labelLines.length * D.line);
      if (row.total && i > 0) {
        this.page.drawLine({
          start: { x: 110 * MM, y: this.top(this.y - 3.4) },
          end: { x: D.right * MM, y: this.top(this.y - 3.4) },
          thickness: 0.6,
          color: BLACK,
        });
      }
      labelLines.forEach((line, n) => this.text(line, D.left, this.y + n * D.line, BODY, font));
      const amountLine = this.y + (labelLines.length - 1) * D.line;
      const amount = printable(row.amount, font);
      this.text(amount, D.right - font.widthOfTextAtSize(amount, BODY) / MM, amountLine, BODY, font);
      this.y = amountLine + D.line + (row.total ? 0 : 0.6);
    }
  }

  private ensureRoom(height: number): void {
    if (this.y + height > D.textBottom) this.newPage();
  }

  private footer(): void {
    drawLetterFooter(this.page, this.fonts, this.content.sender);
  }

  private marks(): void {
    for (const y of D.foldMarks)
      this.page.drawLine({ start: { x: 4 * MM, y: this.top(y) }, end: { x: 9 * MM, y: this.top(y) }, thickness: 0.3, color: GREY });
    this.page.drawLine({
      start: { x: 4 * MM, y: this.top(D.punchMark) },
      end: { x: 12 * MM, y: this.top(D.punchMark) },
      thickness: 0.3,
      color: GREY,
    });
  }

  private pageNumbers(): void {
    if (this.pages.length < 2) return;
    this.pages.forEach((page, i) => {
      const label = LETTER.page(i + 1, this.pages.length);
      const width = this.fonts.regular.widthOfTextAtSize(label, 8);
      page.drawText(label, { x: D.right * MM - width, y: this.top(D.pageNumberBaseline), size: 8, font: this.fonts.regular, color: GREY });
    });
  }

  /** Draws one line with its baseline `yMm` millimetres below the top edge. */
  private text(text: string, xMm: number, yMm: number, size = BODY, font: PDFFont = this.fonts.regular, color = BLACK): void {
    if (!text) return;
    this.page.drawText(printable(text, font), { x: xMm * MM, y: this.top(yMm), size, font, color });
  }

  private top(yMm: number): number {
    return (A4.height - yMm) * MM;
  }
}

/** One PDF from several: a cover letter in front of the client's invoice PDF and its attachment. */
export async function mergePdfs(parts: Uint8Array[]): Promise<{ pdf: Uint8Array; pages: number }> {
  const merged = await PDFDocument.create();
  for (const part of parts) {
    const source = await loadPdf(part, 'a document to merge into a letter');
    const pages = await merged.copyPages(source, source.getPageIndices());
    for (const page of pages) merged.addPage(page);
  }
  return { pdf: await merged.save(), pages: merged.getPageCount() };
}

/** A cover letter and the documents behind it, as one PDF. */
export async function renderCoverLetter(content: LetterContent, documents: Uint8Array[]): Promise<{ pdf: Uint8Array; pages: number }> {
  return mergePdfs([await renderLetter(content), ...documents]);
}
