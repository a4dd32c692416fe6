// The statement of claim (Forderungsaufstellung) handed to debt collection, the form a Mahnbescheid
// application needs: creditor and debtor, the claim's origin, then in date order the principal, each
// cost, interest per period with its rate, each payment with its § 367 BGB allocation and the running
// balance, and the sums open as of the statement date. Pure: a view model in, a PDF out.
import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import { A4, DIN5008, MM } from './din5008.js';
import { embedLetterFonts } from './fonts.js';
import { formatAmountDe, formatDateDe } from './german-format.js';
import { drawLetterFooter } from './letter-footer.js';
import { CLAIM, interestRateText, LETTER, totalRate, percentDe } from './messages.de.js';
import { type FontSet, printable, wrapText } from './text-layout.js';

export interface ClaimParty {
  name: string;
  /** Street, postal code and city, country when abroad. */
  address: string[];
}

export interface ClaimRow {
  /** YYYY-MM-DD. */
  date: string;
  text: string;
  /** A second line in smaller type: an interest period's rate and days, a payment's allocation. */
  detail?: string;
  /** Signed decimal ("-500.00" for a payment). */
  amount: string;
  /** The balance after this row. */
  balance: string;
}

export interface StatementOfClaim {
  /** `legal`: the legal details of a business letter (name and legal form, seat, register, directors, VAT ID). */
  creditor: ClaimParty & { bank: string[]; legal: string[] };
  debtor: ClaimParty;
  /** The statement's date, YYYY-MM-DD. */
  madeOn: string;
  invoice: { number: string; date: string | null; dueDate: string | null; description: string | null };
  rows: ClaimRow[];
  open: { principal: string; costs: string; interest: string; total: string };
  /** Interest that keeps accruing after the statement: its rate and principal, and from when. */
  continuing: { baseRate: string; points: number; principal: string; since: string } | null;
}

const GREY = rgb(0.35, 0.35, 0.35);
const BLACK = rgb(0, 0, 0);
const LEFT = 20;
const RIGHT = 190;
const LINE = 4.6;
const BOTTOM = DIN5008.textBottom;
/** Column positions (mm): date, text, amount (right edge), balance (right edge). */
const COL = { date: LEFT, text: LEFT + 22, amount: 160, balance: RIGHT } as const;

export async function renderStatementOfClaim(model: StatementOfClaim): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  new ClaimWriter(doc, await embedLetterFonts(doc), model).write();
  doc.setTitle(`${CLAIM.title} ${model.invoice.number}`);
  doc.setAuthor(model.creditor.name);
  doc.setCreator('receivables-service');
  return doc.save();
}

class ClaimWriter {
  private readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: FontSet,
    private readonly m: StatementOfClaim,
  ) {}

  write(): void {
    const { m } = this;
    this.newPage();
    this.y = 25;
    this.text(CLAIM.title, LEFT, this.y, 16, this.fonts.bold);
    this.text(`${CLAIM.madeOn}: ${formatDateDe(m.madeOn)}`, RIGHT, this.y, 10, this.fonts.regular, BLACK, 'right');
    this.y += 12;
    this.party(CLAIM.creditor, m.creditor, LEFT);
    const after = this.party(CLAIM.debtor, m.debtor, 110);
    this.y = Math.max(this.y, after) + 4;
    this.text(CLAIM.origin(m.invoice.number, m.invoice.date, m.invoice.dueDate), LEFT, this.y, 10, this.fonts.bold);
    if (m.invoice.description) this.wrapped(m.invoice.description, LEFT, RIGHT - LEFT, 9);
    this.y += 2 * LINE;
    this.header();
    for (const row of m.rows) this.row(row);
    this.sums();
    this.pageNumbers();
  }

  /** A labelled address block at `x`; returns the y below it (the caller keeps the larger of two). */
  private party(label: string, party: ClaimParty, x: number): number {
    let y = this.y;
    this.text(label, x, y, 8, this.fonts.regular, GREY);
    for (const line of [party.name, ...party.address]) {
      y += LINE;
      this.text(line, x, y, 10, line === party.name ? this.fonts.bold : this.fonts.regular);
    }
    return y + LINE;
  }

  private header(): void {
    const { columns } = CLAIM;
    this.text(columns.date, COL.date, this.y, 9, this.fonts.bold);
    this.text(columns.text, COL.text, this.y, 9, this.fonts.bold);
    this.text(columns.amount, COL.amount, this.y, 9, this.fonts.bold, BLACK, 'right');
    this.text(columns.balance, COL.balance, this.y, 9, this.fonts.bold, BLACK, 'right');
    this.rule(this.y + 1.5, 0.5);
    this.y += LINE + 1;
  }

  private row(row: ClaimRow): void {
    const width = (COL.amount - 28 - COL.text) * MM;
    const lines = wrapText(row.text, this.fonts.regular, 9, width);
    const details = row.detail ? wrapText(row.detail, this.fonts.regular, 8, width) : [];
    if (this.y + (lines.length + details.length) * LINE > BOTTOM) {
      this.newPage();
      this.y = 25;
      this.header();
    }
    this.text(formatDateDe(row.date), COL.date, this.y, 9);
    this.text(formatAmountDe(row.amount), COL.amount, this.y, 9, this.fonts.regular, BLACK, 'right');
    this.text(formatAmountDe(row.balance), COL.balance, this.y, 9, this.fonts.regular, BLACK, 'right');
    for (const line of lines) {
      this.text(line, COL.text, this.y, 9);
      this.y += LINE;
    }
    for (const line of details) {
      this.text(line, COL.text, this.y - 0.6, 8, this.fonts.regular, GREY);
      this.y += LINE - 0.6;
    }
    this.y += 0.8;
  }

  private sums(): void {
    const { open, continuing, madeOn } = this.m;
    if (this.y + 7 * LINE > BOTTOM) {
      this.newPage();
      this.y = 25;
    }
    this.rule(this.y - 2.5, 0.5);
    this.y += LINE;
    this.text(`${CLAIM.sums} ${formatDateDe(madeOn)}`, COL.text, this.y, 10, this.fonts.bold);
    this.y += LINE + 1;
    const rows: Array<[string, string, boolean]> = [
      [CLAIM.openPrincipal, open.principal, false],
      [CLAIM.openCosts, open.costs, false],
      [CLAIM.openInterest, open.interest, false],
      [CLAIM.openTotal, open.total, true],
    ];
    for (const [label, amount, bold] of rows) {
      const font = bold ? this.fonts.bold : this.fonts.regular;
      if (bold) this.rule(this.y - 3.4, 0.6, COL.text);
      this.text(label, COL.text, this.y, 10, font);
      this.text(formatAmountDe(amount), COL.balance, this.y, 10, font, BLACK, 'right');
      this.y += LINE + 0.6;
    }
    if (continuing) {
      this.y += LINE;
      const rate = `${percentDe(totalRate(continuing.baseRate, continuing.points))}`;
      const text = `${CLAIM.continuing(rate, continuing.principal, continuing.since)} (${interestRateText(continuing.baseRate, continuing.points)})`;
      this.wrapped(text, COL.text, RIGHT - COL.text, 10);
    }
  }

  private wrapped(text: string, x: number, widthMm: number, size: number): void {
    for (const line of wrapText(text, this.fonts.regular, size, widthMm * MM)) {
      this.y += LINE;
      this.text(line, x, this.y, size);
    }
  }

  private newPage(): void {
    this.page = this.doc.addPage([A4.width * MM, A4.height * MM]);
    this.pages.push(this.page);
    drawLetterFooter(this.page, this.fonts, { ...this.m.creditor, contact: [] });
  }

  private rule(yMm: number, thickness: number, fromMm = LEFT): void {
    this.page.drawLine({ start: { x: fromMm * MM, y: this.top(yMm) }, end: { x: RIGHT * MM, y: this.top(yMm) }, thickness, color: BLACK });
  }

  private pageNumbers(): void {
    this.pages.forEach((page, i) => {
      const label = `${CLAIM.title} ${this.m.invoice.number} · ${LETTER.page(i + 1, this.pages.length)}`;
      const width = this.fonts.regular.widthOfTextAtSize(label, 8);
      page.drawText(label, {
        x: RIGHT * MM - width,
        y: this.top(DIN5008.pageNumberBaseline),
        size: 8,
        font: this.fonts.regular,
        color: GREY,
      });
    });
  }

  private text(
    text: string,
    xMm: number,
    yMm: number,
    size = 10,
    font: PDFFont = this.fonts.regular,
    color = BLACK,
    align: 'left' | 'right' = 'left',
  ): void {
    if (!text) return;
    const shown = printable(text, font);
    const x = align === 'right' ? xMm * MM - font.widthOfTextAtSize(shown, size) : xMm * MM;
    this.page.drawText(shown, { x, y: this.top(yMm), size, font, color });
  }

  private top(yMm: number): number {
    return (A4.height - yMm) * MM;
  }
}
